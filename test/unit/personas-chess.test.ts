import { Chess as ChessJs, type Move as JsMove } from 'chess.js';
import type { Move } from 'chessops';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BountyHunterPersona,
  bountyHunterPersona,
  isWorthHunting,
} from '../../agents/personas/bounty-hunter.js';
import { cautiousChoice, cautiousPersona } from '../../agents/personas/cautious.js';
import {
  boardFromFen,
  capturedRole,
  material,
  materialGain,
  movesOf,
  netGain,
  bestOneMoveWin,
} from '../../agents/personas/chess-eval.js';
import { FlakyPersona, flakyPersona } from '../../agents/personas/flaky.js';
import { greedyChoice, greedyPersona } from '../../agents/personas/greedy.js';
import {
  BAD_KINDS,
  IllegalPersona,
  illegalPersona,
  illegalUci,
  MALFORMED_MOVES,
} from '../../agents/personas/illegal.js';
import type { AgentContext, PersonaFactory } from '../../agents/persona.js';
import { POLL_READS, PollerPersona, pollerPersona } from '../../agents/personas/poller.js';
import { PERSONAS } from '../../agents/registry.js';
import { PlatformClient } from '../../src/client/client.js';
import type { Transport, TransportRequest, TransportResponse } from '../../src/client/transport.js';
import { Rng } from '../../src/kernel/rng.js';
import type { Platform } from '../../src/platform/index.js';
import { stateFingerprint } from '../../src/platform/snapshot.js';
import {
  currentFen,
  legalMoves,
  newBoard,
  parseMove,
  STANDARD_START_FEN,
  toWireUci,
} from '../../src/rules/chess/chess.js';
import { parseScenario } from '../../src/sim/scenario/scenario.js';
import { World, type RunOutcome, type SimAgent } from '../../src/sim/world.js';

// --- hand-built positions -------------------------------------------------------------------------------

/** White can take a queen (d5), a rook (h5) or a pawn (a5), each with a different piece. */
const QUEEN_ROOK_PAWN = '4k3/8/8/p2q3r/1P6/4N3/8/4K2R w - - 0 1';
/** White's queen can take the d5 pawn, which e6 defends: greedy grabs it, cautious must not. */
const POISONED_PAWN = '4k3/8/4p3/3p4/8/8/8/3QK3 w - - 0 1';
/** White's knight on c3 is attacked by the b4 pawn and undefended: only knight moves save it. */
const KNIGHT_ATTACKED = '4k3/8/8/8/1p6/2N5/8/4K3 w - - 0 1';

/** The moves of `chooser` over `seeds` draws, as wire UCI. */
function choices(chooser: typeof greedyChoice, fen: string, seeds = 60): Set<string> {
  const board = boardFromFen(fen);
  const out = new Set<string>();
  for (let i = 0; i < seeds; i++)
    out.add(toWireUci(board, chooser(board.pos, legalMoves(board), new Rng(`pick-${i}`))));
  return out;
}

function uciMove(fen: string, uci: string): Move {
  const parsed = parseMove(boardFromFen(fen), uci);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.move;
}

describe('chess-eval: material by a static one-move look', () => {
  it('counts material, captures (not castling onto its own rook, en passant included) and promotions', () => {
    const start = boardFromFen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1').pos;
    expect([material(start, 'white'), material(start, 'black')]).toEqual([39, 39]);
    const castle = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
    expect(capturedRole(boardFromFen(castle).pos, uciMove(castle, 'e1g1'))).toBeUndefined();
    const ep = '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2';
    expect(capturedRole(boardFromFen(ep).pos, uciMove(ep, 'e5d6'))).toBe('pawn');
    const promo = '1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1';
    expect(materialGain(boardFromFen(promo).pos, uciMove(promo, 'a7a8q'))).toBe(8);
    expect(materialGain(boardFromFen(promo).pos, uciMove(promo, 'a7b8n'))).toBe(3 + 2);
  });

  it('sees what the opponent wins with one capture: a hanging piece, a defended one, a favourable trade', () => {
    expect(bestOneMoveWin(boardFromFen('4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1').pos)).toBe(3); // undefended knight
    expect(bestOneMoveWin(boardFromFen('4k3/8/4p3/3n4/8/8/8/3RK3 w - - 0 1').pos)).toBe(0); // defended: R for N loses
    expect(bestOneMoveWin(boardFromFen('4k3/8/4p3/3q4/8/8/8/3RK3 w - - 0 1').pos)).toBe(4); // R takes a defended Q
    const pos = boardFromFen(POISONED_PAWN).pos;
    expect(netGain(pos, uciMove(POISONED_PAWN, 'd1d5'))).toBe(1 - 9);
    expect(netGain(pos, uciMove(POISONED_PAWN, 'd1d2'))).toBe(0);
  });
});

describe('greedy and cautious choose by material', () => {
  it('greedy takes the queen, whatever the seed', () => {
    expect(choices(greedyChoice, QUEEN_ROOK_PAWN)).toEqual(new Set(['e3d5']));
  });

  it('greedy promotes when nothing is worth more, and draws among equal captures', () => {
    expect(choices(greedyChoice, '4k3/P7/8/8/8/8/8/4K3 w - - 0 1')).toEqual(new Set(['a7a8q']));
    expect(choices(greedyChoice, '4k3/8/8/2n1n3/3P4/8/8/4K3 w - - 0 1')).toEqual(new Set(['d4c5', 'd4e5']));
  });

  it('greedy grabs the poisoned pawn; cautious never does, and varies among the safe moves', () => {
    expect(choices(greedyChoice, POISONED_PAWN)).toEqual(new Set(['d1d5']));
    const cautious = choices(cautiousChoice, POISONED_PAWN, 200);
    expect(cautious.has('d1d5')).toBe(false);
    expect(cautious.size).toBeGreaterThan(5);
  });

  it('cautious moves an attacked piece out of the way; when everything loses, it loses least', () => {
    const saved = choices(cautiousChoice, KNIGHT_ATTACKED, 200);
    expect([...saved].every((uci) => uci.startsWith('c3'))).toBe(true);
    expect([...saved].some((uci) => uci === 'c3b5' || uci === 'c3a4')).toBe(true);
    // A pawn forks two knights: every move loses material, and it plays one that loses least.
    const fork = '4k3/8/8/8/3p4/2N1N3/8/7K w - - 0 1';
    const scores = jsScores(fork);
    const least = Math.max(...[...scores.values()].map((s) => s.net));
    expect(least).toBeLessThan(0);
    for (const uci of choices(cautiousChoice, fork, 100)) expect(scores.get(uci)!.net).toBe(least);
  });
});

// --- an independent oracle: the same static look computed with chess.js ------------------------------------

const JS_VALUE: Record<string, number> = { p: 1, n: 3, b: 3, r: 5, q: 9, k: 0 };

function jsGain(move: JsMove): number {
  return (
    (move.captured ? JS_VALUE[move.captured]! : 0) + (move.promotion ? JS_VALUE[move.promotion]! - 1 : 0)
  );
}

/** The most the side to move of `game` wins with one capture or promotion, less the piece if it is taken back. */
function jsBestWin(game: ChessJs): number {
  let best = 0;
  for (const move of game.moves({ verbose: true })) {
    const gain = jsGain(move);
    if (gain <= 0) continue;
    game.move(move);
    // A legal move onto the square; attackers() only narrows down whose moves to generate.
    const recaptured = game
      .attackers(move.to)
      .some((from) => game.moves({ square: from, verbose: true }).some((reply) => reply.to === move.to));
    game.undo();
    best = Math.max(best, gain - (recaptured ? JS_VALUE[move.promotion ?? move.piece]! : 0));
  }
  return best;
}

/** Every legal move's gain and net balance, keyed by UCI, by chess.js. */
function jsScores(fen: string): Map<string, { gain: number; net: number }> {
  const game = new ChessJs(fen);
  const out = new Map<string, { gain: number; net: number }>();
  for (const move of game.moves({ verbose: true })) {
    game.move(move);
    out.set(move.lan, { gain: jsGain(move), net: jsGain(move) - jsBestWin(game) });
    game.undo();
  }
  return out;
}

/** A position reached by `plies` random legal moves from the start, drawn from `seed`; undefined if the game ended. */
function playout(seed: number, plies: number): string | undefined {
  const rng = new Rng(`playout-${seed}`);
  const board = newBoard();
  for (let i = 0; i < plies; i++) {
    const moves = legalMoves(board);
    if (moves.length === 0) return undefined;
    board.pos.play(rng.pick(moves));
  }
  return legalMoves(board).length === 0 ? undefined : currentFen(board);
}

describe('greedy and cautious agree with a chess.js oracle on random positions', () => {
  it('greedy plays a move of greatest gain; cautious one of greatest net balance, so never a hanging move when a safe one exists', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 4, max: 80 }), (seed, plies) => {
        const fen = playout(seed, plies);
        if (fen === undefined) return;
        const scores = jsScores(fen);
        const board = boardFromFen(fen);
        const moves = legalMoves(board);
        expect(moves.map((m) => toWireUci(board, m)).sort()).toEqual([...scores.keys()].sort());
        for (const m of moves)
          expect(netGain(board.pos, m), `${fen} ${toWireUci(board, m)}`).toBe(
            scores.get(toWireUci(board, m))!.net,
          );
        const rng = new Rng(`oracle-${seed}`);
        const greedy = scores.get(toWireUci(board, greedyChoice(board.pos, moves, rng)))!;
        const cautious = scores.get(toWireUci(board, cautiousChoice(board.pos, moves, rng)))!;
        expect(greedy.gain).toBe(Math.max(...[...scores.values()].map((s) => s.gain)));
        const bestNet = Math.max(...[...scores.values()].map((s) => s.net));
        expect(cautious.net).toBe(bestNet);
      }),
      { numRuns: 20 },
    );
  });
});

// --- option checks ------------------------------------------------------------------------------------------

describe('chess persona options', () => {
  const factories: PersonaFactory[] = [
    greedyPersona,
    cautiousPersona,
    bountyHunterPersona,
    flakyPersona,
    illegalPersona,
    pollerPersona,
  ];

  it('every chess persona accepts its defaults', () => {
    for (const f of factories) expect(f.checkOptions({}), f.name).toEqual([]);
  });

  const bad: Array<[PersonaFactory, Record<string, unknown>, RegExp]> = [
    [greedyPersona, { lookahead: 2 }, /^lookahead: unknown option$/],
    [cautiousPersona, { seekChance: 3 }, /^seekChance: must be a number from 0 to 1$/],
    [bountyHunterPersona, { minEloGap: -5 }, /^minEloGap: must be a number from 0 to 3000$/],
    [bountyHunterPersona, { maxBountySol: 20 }, /^maxBountySol: must be a number from 0.01 to 10$/],
    [bountyHunterPersona, { bountyShare: 0.5 }, /^bountyShare: unknown option$/],
    [flakyPersona, { missRate: 1.5 }, /^missRate: must be a number from 0 to 1$/],
    [flakyPersona, { thinkMaxMs: 400_000 }, /^thinkMaxMs: must be an integer from 0 to 299000$/],
    [flakyPersona, { lateChance: 0.1 }, /^lateChance: unknown option$/],
    [illegalPersona, { badChance: 'often' }, /^badChance: must be a number from 0 to 1$/],
    [
      illegalPersona,
      { kinds: ['illegal', 'teleport'] },
      /^kinds: must be a non-empty list of illegal, malformed/,
    ],
    [pollerPersona, { reads: ['feed', 'weather'] }, /^reads: must be a list of tournaments, feed/],
  ];
  for (const [factory, options, problem] of bad) {
    it(`${factory.name} refuses ${JSON.stringify(options)}, naming the option`, () => {
      const problems = factory.checkOptions(options);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(problem);
    });
  }

  it('the registry names each of them, and a scenario group accepts it', () => {
    for (const f of factories) {
      expect(PERSONAS.get(f.name)).toBe(f);
      const text = scenarioText(
        `  - persona: ${f.name}\n    count: 1\n    heartbeat: { min: 30s, max: 60s }\n    airdrop: 1\n`,
      );
      expect(parseScenario(text).population.map((g) => g.persona)).toContain(f.name);
    }
  });
});

describe('the illegal sender writes moves that cannot be played', () => {
  it('its illegal UCI is well-formed and refused by the move parser; its malformed texts are refused too', () => {
    for (let seed = 0; seed < 30; seed++) {
      const fen = playout(seed, 20) ?? STANDARD_START_FEN;
      const board = boardFromFen(fen);
      const text = illegalUci({ rng: new Rng(`bad-${seed}`) } as AgentContext, board);
      expect(text).toMatch(/^[a-h][1-8][a-h][1-8]$/);
      expect(parseMove(board, text).ok, `${fen} ${text}`).toBe(false);
      for (const malformed of MALFORMED_MOVES) expect(parseMove(board, malformed).ok, malformed).toBe(false);
    }
  });
});

// --- short scenarios ----------------------------------------------------------------------------------------

function scenarioText(groups: string, duration = '1h', extra = ''): string {
  return `
name: chess-personas
seed: 61
start: 2026-03-01T00:00:00Z
duration: ${duration}
${extra}
population:
${groups}`;
}

/** One population group in scenario YAML. */
function group(
  persona: string,
  count: number,
  extra: { heartbeat?: string; airdrop?: number; options?: string } = {},
): string {
  return [
    `  - persona: ${persona}\n    count: ${count}\n    heartbeat: ${extra.heartbeat ?? '{ min: 30s, max: 60s }'}\n`,
    extra.airdrop ? `    airdrop: ${extra.airdrop}\n` : '',
    extra.options ? `    options: ${extra.options}\n` : '',
  ].join('');
}

interface RunSpec {
  groups: string[];
  duration: string;
  /** Wraps the transport of every agent of one persona. */
  watch?: { persona: string; wrap: (agent: SimAgent, inner: Transport, platform: Platform) => Transport };
  /** Called once the population is registered, before the first heartbeat. */
  onReady?: (world: World) => void;
}

/** Runs a scenario (parsed, so the registry and each persona's option check are on the path); no invariant may break. */
async function runGroups(
  spec: RunSpec,
): Promise<{ world: World; outcome: RunOutcome; of: (persona: string) => SimAgent[] }> {
  const world = new World(parseScenario(scenarioText(spec.groups.join(''), spec.duration)));
  await world.populate();
  if (spec.watch) {
    const { persona, wrap } = spec.watch;
    world.agents.forEach((agent, i) => {
      if (agent.persona !== persona) return;
      const client = new PlatformClient(
        wrap(agent, agent.client.transport, world.platform),
        agent.client.apiKey,
      );
      world.agents[i] = { ...agent, client };
    });
  }
  spec.onReady?.(world);
  const outcome = await world.run();
  const broken = outcome.invariants
    .filter((i) => !i.passed)
    .map((i) => `${i.name}: ${i.violations[0]?.message}`);
  expect(broken).toEqual([]);
  return { world, outcome, of: (persona) => world.agents.filter((a) => a.persona === persona) };
}

/** Each move a persona played through the platform, with the position it was played in. */
function movesBy(platform: Platform, agentIds: Set<string>): Array<{ fen: string; uci: string }> {
  const out: Array<{ fen: string; uci: string }> = [];
  for (const game of platform.state.games.values()) {
    game.moves.forEach((move, i) => {
      const mover = move.color === 'white' ? game.whiteId : game.blackId;
      if (agentIds.has(mover))
        out.push({ fen: i === 0 ? game.initialFen : game.moves[i - 1]!.fenAfter, uci: move.uci });
    });
  }
  return out;
}

interface Refusal {
  code: string;
  reason: string;
  /** The platform's state (usage counters aside) was the same after the refusal as before. */
  unchanged: boolean;
}

/** A transport wrapper that records every refused move request of the wrapped agents. */
function recordMoveRefusals(into: Refusal[]): NonNullable<RunSpec['watch']>['wrap'] {
  return (_agent, inner, platform) => ({
    async send(request: TransportRequest): Promise<TransportResponse> {
      if (request.path !== '/api/chess/move') return inner.send(request);
      const before = stateFingerprint(platform);
      const response = await inner.send(request);
      if (response.status >= 400) {
        const body = response.body as { error?: string; reason?: string };
        into.push({
          code: String(body.error),
          reason: String(body.reason),
          unchanged: stateFingerprint(platform) === before,
        });
      }
      return response;
    },
  });
}

function idOf(platform: Platform, handle: string): string {
  return [...platform.state.agents.values()].find((a) => a.handle === handle)!.id;
}

/** The mean material lead of `players` over `opponents` in the latest position of their games (pawns). */
function materialLead(
  p: Platform,
  players: Set<string>,
  opponents: Set<string>,
): { lead: number; games: number } {
  let lead = 0;
  let games = 0;
  for (const g of p.state.games.values()) {
    const side =
      players.has(g.whiteId) && opponents.has(g.blackId)
        ? 'white'
        : players.has(g.blackId) && opponents.has(g.whiteId)
          ? 'black'
          : null;
    if (side === null || g.moves.length === 0) continue;
    const pos = boardFromFen(g.moves.at(-1)!.fenAfter).pos;
    lead += material(pos, side) - material(pos, side === 'white' ? 'black' : 'white');
    games++;
  }
  return { lead: lead / games, games };
}

const ids = (p: Platform, agents: SimAgent[]) => new Set(agents.map((a) => idOf(p, a.handle)));

describe('chess personas in short runs (every invariant holds)', () => {
  it('greedy and cautious play their rule through the platform, and end up ahead in material', async () => {
    const { outcome, of } = await runGroups({
      groups: [group('random', 4), group('greedy', 2), group('cautious', 2)],
      duration: '2h',
    });
    const p = outcome.platform;
    const [randomIds, greedyIds, cautiousIds] = [of('random'), of('greedy'), of('cautious')].map((agents) =>
      ids(p, agents),
    );
    const greedyMoves = movesBy(p, greedyIds!);
    const cautiousMoves = movesBy(p, cautiousIds!);
    expect(greedyMoves.length).toBeGreaterThan(100);
    expect(cautiousMoves.length).toBeGreaterThan(100);
    for (const { fen, uci } of greedyMoves) {
      const pos = boardFromFen(fen).pos;
      expect(materialGain(pos, uciMove(fen, uci))).toBe(
        Math.max(...movesOf(pos).map((m) => materialGain(pos, m))),
      );
    }
    for (const { fen, uci } of cautiousMoves) {
      const pos = boardFromFen(fen).pos;
      expect(netGain(pos, uciMove(fen, uci))).toBe(Math.max(...movesOf(pos).map((m) => netGain(pos, m))));
    }
    // Their purpose shows on the board: against random they end up ahead in material, cautious against greedy too.
    // (seed 61: about +27 and +38 pawns over random, +26 for cautious over greedy, in 6-10 games each)
    expect(materialLead(p, greedyIds!, randomIds!).lead).toBeGreaterThan(10);
    expect(materialLead(p, cautiousIds!, randomIds!).lead).toBeGreaterThan(10);
    expect(materialLead(p, cautiousIds!, greedyIds!).lead).toBeGreaterThan(5);
  });

  it('flaky loses games on time, and sleeps through some heartbeats', async () => {
    const refusals: Refusal[] = [];
    const { outcome, of } = await runGroups({
      groups: [group('random', 4), group('flaky', 2, { options: '{ missRate: 0.05, skipChance: 0.2 }' })],
      duration: '90m',
      watch: { persona: 'flaky', wrap: recordMoveRefusals(refusals) },
    });
    const p = outcome.platform;
    const flakyIds = ids(p, of('flaky'));
    const timeoutsLostByFlaky = [...p.state.games.values()].filter((g) => {
      if (g.end?.reason !== 'timeout') return false;
      return flakyIds.has(g.end.winner === 'white' ? g.blackId : g.whiteId);
    });
    expect(timeoutsLostByFlaky.length).toBeGreaterThan(0);
    expect(of('flaky').every((a) => (a.impl as FlakyPersona).skipped > 0)).toBe(true);
    // Its late answers met the deadline's refusal, which changed nothing.
    expect(refusals.filter((r) => r.reason === 'deadline_passed').length).toBeGreaterThan(0);
    expect(refusals.filter((r) => r.code !== 'bad_request' || !r.unchanged)).toEqual([]);
  });

  it('the illegal sender meets bad_request for every kind, nothing changes, and its games go on', async () => {
    const refusals: Refusal[] = [];
    const { outcome, of } = await runGroups({
      groups: [group('random', 4), group('illegal', 2, { options: '{ badChance: 0.7 }' })],
      duration: '1h',
      watch: { persona: 'illegal', wrap: recordMoveRefusals(refusals) },
    });
    const stats = of('illegal').map((a) => (a.impl as IllegalPersona).stats);
    for (const kind of BAD_KINDS)
      expect(
        stats.reduce((n, s) => n + s.sent[kind], 0),
        kind,
      ).toBeGreaterThan(0);
    expect(stats.flatMap((s) => s.unexpected)).toEqual([]);
    const sent = stats.reduce((n, s) => n + Object.values(s.sent).reduce((a, b) => a + b, 0), 0);
    expect(stats.reduce((n, s) => n + s.refused, 0)).toBe(sent);
    const reasons = new Set(stats.flatMap((s) => [...s.reasons.keys()]));
    for (const reason of ['illegal_move', 'not_your_turn', 'not_a_player'])
      expect(reasons.has(reason), reason).toBe(true);
    // Every refused move request (its bad ones, and any late legal one) was bad_request and changed nothing.
    expect(refusals.length).toBeGreaterThanOrEqual(sent);
    expect(refusals.filter((r) => r.code !== 'bad_request' || !r.unchanged)).toEqual([]);
    expect(movesBy(outcome.platform, ids(outcome.platform, of('illegal'))).length).toBeGreaterThan(50);
  });

  it('the bounty hunter accepts only bounties from challengers at least minEloGap below it, and creates none', async () => {
    const minEloGap = 20;
    const seen: Array<{ gap: number; bounty: number | null }> = [];
    let hunterIds = new Set<string>();
    /** Read from the platform's own state at the moment of acceptance, apart from what the hunter believed. */
    const watchAccepts = (world: World): void => {
      const p = world.platform;
      hunterIds = ids(
        p,
        world.agents.filter((a) => a.persona === 'bounty-hunter'),
      );
      p.onEvent((event) => {
        if (event.type !== 'challenge_accepted' || !hunterIds.has(event.agentId)) return;
        const challenge = p.state.challenges.get(event.challengeId)!;
        const gap = p.state.agents.get(event.agentId)!.elo - p.state.agents.get(challenge.challengerId)!.elo;
        seen.push({ gap, bounty: challenge.bountyLamports });
      });
    };
    // Fast play, so Elo spreads within the run; prey that play one game at a time leave their bounties standing a while.
    const fast = '{ min: 5s, max: 10s }';
    const { outcome, of } = await runGroups({
      groups: [
        group('random', 8, {
          heartbeat: fast,
          airdrop: 5,
          options: '{ maxGames: 1, bountyShare: 0.8, bountyMinSol: 0.01, bountyMaxSol: 0.2 }',
        }),
        group('bounty-hunter', 2, { heartbeat: fast, airdrop: 5, options: `{ minEloGap: ${minEloGap} }` }),
      ],
      duration: '2h',
      onReady: watchAccepts,
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.filter((s) => s.bounty === null || s.gap < minEloGap)).toEqual([]);
    expect(
      [...outcome.platform.state.challenges.values()].filter((c) => hunterIds.has(c.challengerId)),
    ).toEqual([]);
    const hunters = of('bounty-hunter').map((a) => a.impl as BountyHunterPersona);
    // It was selective: it saw bounties it let go for want of the gap.
    expect(hunters.reduce((n, h) => n + h.passedOver.size, 0)).toBeGreaterThan(seen.length);
    const own = hunters.flatMap((h) => h.accepted);
    expect(own.length).toBe(seen.length);
    expect(own.every((h) => isWorthHunting(h, h.ownElo, { minEloGap, maxBountySol: 1 }))).toBe(true);
  });

  it("the poller reads my-turn on every heartbeat, in the skill's order", async () => {
    const log = new Map<string, Array<{ t: number; step: number; path: string }>>();
    const wrap = (agent: SimAgent, inner: Transport, platform: Platform): Transport => ({
      async send(request: TransportRequest): Promise<TransportResponse> {
        const entries = log.get(agent.handle) ?? [];
        log.set(agent.handle, entries);
        entries.push({
          t: platform.nowMs,
          step: heartbeatStep(request),
          path: `${request.method} ${request.path}`,
        });
        return inner.send(request);
      },
    });
    const reads = ['tournaments', 'feed', 'notifications'] as const;
    const { outcome, of } = await runGroups({
      groups: [group('random', 3), group('poller', 3, { options: `{ reads: [${reads.join(', ')}] }` })],
      duration: '1h',
      watch: { persona: 'poller', wrap },
    });
    for (const agent of of('poller')) {
      const stats = (agent.impl as PollerPersona).stats;
      const [post, ...entries] = log.get(agent.handle)!;
      expect(post!.path).toBe('POST /api/social/post'); // the research phase, once
      const beats = splitAt(entries, (e) => e.path === 'GET /api/chess/games/my-turn');
      expect(beats.length).toBe(stats.heartbeats);
      expect(stats.heartbeats).toBeGreaterThan(55); // one hour of 30-60 s heartbeats
      for (const beat of beats) {
        const steps = beat.map((e) => e.step);
        expect(steps, beat.map((e) => e.path).join(', ')).toEqual([...steps].sort((x, y) => x - y));
        for (const read of reads) expect(beat.some((e) => e.path === READ_PATHS[read])).toBe(true);
      }
      const starts = beats.map((b) => b[0]!.t);
      for (let i = 1; i < starts.length; i++)
        expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(30_000);
      for (const read of reads) expect(stats.reads.get(read)).toBe(stats.heartbeats);
    }
    expect(outcome.requests.requests).toBeGreaterThan(3 * 55 * 5);
  });
});

describe('chess personas together', () => {
  it('one seed gives one history, with all six in one world', async () => {
    const personas = ['greedy', 'cautious', 'bounty-hunter', 'flaky', 'illegal', 'poller'];
    const run = async () => {
      const groups = [
        group('random', 4, { airdrop: 2, options: '{ bountyShare: 0.5 }' }),
        ...personas.map((p) => group(p, 1, { airdrop: 2 })),
      ];
      const { outcome } = await runGroups({ groups, duration: '40m' });
      return { fingerprint: outcome.fingerprint, moves: outcome.eventCounts.get('move_played') ?? 0 };
    };
    const first = await run();
    expect(first.moves).toBeGreaterThan(100);
    expect(await run()).toEqual(first);
  });
});

const READ_PATHS: Record<(typeof POLL_READS)[number], string> = {
  tournaments: 'GET /api/chess/tournaments/open',
  feed: 'GET /api/feed',
  notifications: 'GET /api/feed/notifications',
  unseen: 'GET /api/feed/unseen',
  leaderboard: 'GET /api/chess/leaderboard/around',
  activity: 'GET /api/activity',
};

/** The documented heartbeat order as numbers: my-turn, move, challenges, then the reads (post: before all). */
function heartbeatStep(request: TransportRequest): number {
  const route = `${request.method} ${request.path}`;
  if (route === 'POST /api/social/post') return -1;
  if (route === 'GET /api/chess/games/my-turn') return 0;
  if (route === 'POST /api/chess/move') return 1;
  if (
    route.includes('/api/chess/challenge') ||
    route === 'GET /api/chess/games' ||
    route === 'GET /api/chess/leaderboard'
  )
    return 2;
  const read = POLL_READS.findIndex((r) => READ_PATHS[r] === route);
  if (read < 0) throw new Error(`unexpected request in a poller heartbeat: ${route}`);
  return 3 + read;
}

/** Splits a log into runs that each begin with an entry matching `starts`. */
function splitAt<T>(entries: T[], starts: (entry: T) => boolean): T[][] {
  const out: T[][] = [];
  for (const entry of entries) {
    if (starts(entry)) out.push([]);
    out[out.length - 1]!.push(entry);
  }
  return out;
}
