/**
 * Calibration of the engine ladder: mini-matches between adjacent levels and between each level and the
 * random persona's play (a uniformly random legal move), every game played through the platform's
 * in-process API, as two agents would. The result is an Elo per level anchored at random = 400. It sits on
 * the simulation side because it builds its own platforms (src/sim/wiring.ts), which agents never do.
 *
 * Decisions (docs/rules.md):
 * - Every game is independent: its own platform, its own seeded stream, and engine searches that start
 *   from `ucinewgame` (the pool's contract). So the results do not depend on how many games run at once
 *   or on the pool's size, and games run concurrently to keep every engine of the pool busy.
 * - Colours alternate: the first contender is white in even games.
 * - The ladder is a chain: random -> weakest level -> next level -> ...; each level's Elo is the one
 *   below it plus their match's Elo difference (src/rules/chess/match-elo.ts, the one score interval of the
 *   project: two virtual draws as a prior, Wilson's 95% interval), so a perfect score has a finite estimate
 *   and both bounds. Interval half-widths add in quadrature along the chain (independent matches). The matches of upper
 *   levels against random are played and recorded as a sanity check; they rarely carry information
 *   (a perfect score) and do not move the ladder.
 */
import type { PlatformClient } from '../client/client.js';
import { Rng } from '../kernel/rng.js';
import { legalMoves, newBoard, toWireUci } from '../rules/chess/chess.js';
import { matchElo, type MatchResult } from '../rules/chess/match-elo.js';
import { DEFAULT_RULESET, type Ruleset } from '../rules/ruleset.js';
import { chooseMove, LEVELS, type EngineLevel } from '../../agents/engines/levels.js';
import { EnginePool } from '../../agents/engines/pool.js';
import type { Ladder, LadderLevel, LadderPairing } from '../../agents/engines/strength.js';
import { wirePlatform, type WiredPlatform } from './wiring.js';

/** The fixed point of the scale: a player of uniformly random legal moves. */
export const RANDOM_ANCHOR = { name: 'random', elo: 400 } as const;

export type Contender = EngineLevel | 'random';

export interface Pairing {
  first: Contender;
  second: Contender;
  games: number;
}

export interface PairingResult extends MatchResult {
  first: string;
  second: string;
}

export interface GameReport {
  pairing: PairingResult;
  /** Games finished so far, over all pairings, and the total. */
  done: number;
  total: number;
}

/** What the ladder file records about how it was made. */
export interface LadderMeta {
  seed: string;
  /** Games of each chain match (level vs the level below). */
  gamesPerPairing: number;
  /** Games of each upper level against random (a sanity check, not a link of the chain). */
  checkGames: number;
  /** Multiplies every level's node budget (1 = the levels as agents play them). */
  nodesScale: number;
}

export interface PlayOptions {
  seed: string;
  nodesScale: number;
  pool?: EnginePool;
  /** Games in flight at once; default twice the pool's engines, so none waits on the platform. */
  concurrency?: number;
  onGame?: (report: GameReport) => void;
}

export interface CalibrationOptions extends LadderMeta, PlayOptions {
  levels?: readonly EngineLevel[];
}

export const nameOf = (c: Contender): string => (c === 'random' ? RANDOM_ANCHOR.name : c.name);

/** Each level against the one below it (the weakest against random), then each other level against random. */
export function calibrationPairings(levels: readonly EngineLevel[], meta: LadderMeta): Pairing[] {
  const chain = levels.map((level, i) => ({
    first: level,
    second: levels[i - 1] ?? ('random' as const),
    games: meta.gamesPerPairing,
  }));
  const checks = levels
    .slice(1)
    .map((level) => ({ first: level, second: 'random' as const, games: meta.checkGames }));
  return [...chain, ...checks].filter((p) => p.games > 0);
}

export async function calibrate(options: CalibrationOptions): Promise<Ladder> {
  const levels = options.levels ?? LEVELS;
  const results = await playPairings(calibrationPairings(levels, options), options);
  return buildLadder(levels, results, options);
}

/** Plays every pairing's games; results in the pairings' order. */
export async function playPairings(
  pairings: readonly Pairing[],
  options: PlayOptions,
): Promise<PairingResult[]> {
  const pool = options.pool ?? EnginePool.shared();
  const results = pairings.map((p) => ({
    first: nameOf(p.first),
    second: nameOf(p.second),
    wins: 0,
    draws: 0,
    losses: 0,
  }));
  const games = pairings.flatMap((pairing, p) =>
    Array.from({ length: pairing.games }, (_, g) => ({ pairing, p, g })),
  );
  let done = 0;
  await runConcurrently(games, options.concurrency ?? pool.size * 2, async ({ pairing, p, g }) => {
    const rng = new Rng(options.seed).fork(
      `calibration/${results[p]!.first}-vs-${results[p]!.second}/game-${g}`,
    );
    const score = await playGame(pairing, g % 2 === 0, rng, { pool, nodesScale: options.nodesScale });
    const result = results[p]!;
    if (score === 1) result.wins++;
    else if (score === 0) result.losses++;
    else result.draws++;
    options.onGame?.({ pairing: result, done: ++done, total: games.length });
  });
  return results;
}

interface Players {
  pool: EnginePool;
  nodesScale: number;
}

/**
 * One game on a fresh platform between two registered agents; returns the first contender's score. Each
 * side reads the position from the platform's answer and sends its move in UCI, as an agent would.
 */
export async function playGame(
  pairing: Pairing,
  firstIsWhite: boolean,
  rng: Rng,
  players: Players,
): Promise<0 | 0.5 | 1> {
  const ruleset = calibrationRuleset();
  const wired = wirePlatform({ seed: rng.path, startMs: Date.UTC(2026, 0, 1), ruleset });
  const [white, black] = firstIsWhite ? [pairing.first, pairing.second] : [pairing.second, pairing.first];
  const sides = [await seat(wired, 'cal_white', white), await seat(wired, 'cal_black', black)] as const;
  const { challenge } = await sides[0].client.createChallenge({ opponent_handle: 'cal_black' });
  let fen = (await sides[1].client.acceptChallenge(challenge.challenge_id)).game.current_fen;
  for (let ply = 0; ply <= ruleset.game.moveLimitPlies; ply++) {
    const side = sides[ply % 2]!;
    // One game is one sequence of draws, so a single stream for both sides is as deterministic as two.
    const uci = await pickMove(side.contender, fen, rng, players);
    const answer = await side.client.move({ game_id: challenge.challenge_id, move_uci: uci });
    fen = answer.move.fen_after;
    if (answer.game_status === 'completed') return firstScore(answer.game_result, firstIsWhite);
  }
  throw new Error(`calibration: game ${rng.path} passed the platform's move limit without ending`);
}

interface Seat {
  client: PlatformClient;
  contender: Contender;
}

/** Registers an agent and clears the research phase (one post), as every agent must before playing. */
async function seat(wired: WiredPlatform, handle: string, contender: Contender): Promise<Seat> {
  const client = wired.client();
  await client.register({ handle });
  await client.post(`I am ${nameOf(contender)}, here to be measured.`);
  return { client, contender };
}

/** The spec's research phase (one post) and no request quota: the calibration is measured, not throttled. */
function calibrationRuleset(): Ruleset {
  return { ...DEFAULT_RULESET, api: { ...DEFAULT_RULESET.api, requestsPerDay: Number.MAX_SAFE_INTEGER } };
}

async function pickMove(contender: Contender, fen: string, rng: Rng, players: Players): Promise<string> {
  if (contender === 'random') {
    const board = newBoard(fen);
    return toWireUci(board, rng.pick(legalMoves(board)));
  }
  const nodes = Math.max(1, Math.round(contender.nodes * players.nodesScale));
  const result = await players.pool.search({ fen, nodes, multiPv: contender.multiPv });
  return chooseMove(result, contender, rng);
}

function firstScore(result: string | null, firstIsWhite: boolean): 0 | 0.5 | 1 {
  if (result === '1/2-1/2') return 0.5;
  if (result !== '1-0' && result !== '0-1')
    throw new Error(`calibration: a completed game without a result (${result})`);
  return (result === '1-0') === firstIsWhite ? 1 : 0;
}

/** Runs `task` over `items` with at most `limit` in flight; every loop ends when the list is drained. */
async function runConcurrently<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

/**
 * The anchored ladder of `levels` (weakest first) from the match results; see the header for the chain
 * and the perfect-score rule. Pure.
 */
export function buildLadder(
  levels: readonly EngineLevel[],
  results: readonly PairingResult[],
  options: LadderMeta,
): Ladder {
  let elo: number = RANDOM_ANCHOR.elo;
  let below2 = 0;
  let above2 = 0;
  let games = 0;
  const ladder: LadderLevel[] = levels.map((level, i) => {
    const link = linkOf(results, level.name, levels[i - 1]?.name ?? RANDOM_ANCHOR.name);
    elo += link.difference;
    below2 += link.below ** 2;
    above2 += link.above ** 2;
    games += link.games;
    const { name, nodes, multiPv, spreadCp } = level;
    return {
      name,
      nodes,
      multiPv,
      spreadCp,
      elo: Math.round(elo),
      low: finite(elo - Math.sqrt(below2)),
      high: finite(elo + Math.sqrt(above2)),
      games,
    };
  });
  return {
    method: METHOD,
    anchor: { ...RANDOM_ANCHOR },
    seed: options.seed,
    gamesPerPairing: options.gamesPerPairing,
    checkGames: options.checkGames,
    nodesScale: options.nodesScale,
    levels: ladder,
    pairings: results.map(describePairing),
  };
}

const METHOD =
  'Chain random -> weakest -> ... -> strongest: each level = the level below + Elo of their match ' +
  '(score with two virtual draws s = (W + D/2 + 1)/(N + 2), Elo = -400 log10(1/s - 1), 95% Wilson score interval ' +
  'on s over N + 2 games, finite and of positive width for every record); interval half-widths add in quadrature; ' +
  'random is fixed at 400.';

interface Link {
  difference: number;
  below: number;
  above: number;
  games: number;
}

function linkOf(results: readonly PairingResult[], upper: string, lower: string): Link {
  const result = results.find((r) => r.first === upper && r.second === lower);
  if (!result) throw new Error(`calibration: no match of ${upper} against ${lower}`);
  const m = matchElo(result);
  return { difference: m.estimate, below: m.estimate - m.low, above: m.high - m.estimate, games: m.games };
}

function describePairing(result: PairingResult): LadderPairing {
  const m = matchElo(result);
  return { ...result, elo: finite(m.estimate), low: finite(m.low), high: finite(m.high) };
}

/** Whole Elo for the file; an infinite value is written as null (JSON has no Infinity). */
function finite(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x) : null;
}
