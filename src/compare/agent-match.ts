import {
  pairsLlr,
  sprtState,
  type GameCounts,
  type PairCounts,
  type SprtBounds,
  type SprtState,
} from '../rules/chess/sprt.js';
import { DUEL_HANDLES, duelGame, scoreFor, type DuelGame, type DuelResult, type DuelTask } from './duel.js';
import type { PlayerSpec } from './players.js';

/**
 * `compare --agent A --agent B`: game pairs with colours swapped, decided by the SPRT over pairs.
 *
 * Pair k (counting from 1) is played from the k-th seed. Without --vs it is two duel worlds
 * (src/compare/duel.ts): A challenges B (A has White), then B challenges A. With --vs, A and B are compared
 * through the same opponent instead: pair k takes the opponent vs[(k - 1) mod m] and four worlds, A and B each
 * playing it once with White and once with Black; in each colour A's game is set against B's game from
 * the same seed and colour, and A "wins" that comparison when it scored more, draws when equal. The pair is
 * then the two colours, and the SPRT asks whether A outscores B against the field: the Elo it reports is of
 * that comparison, not of A against B head to head.
 *
 * Pairs are taken in seed order whatever order the worlds finish in, so the decision and every figure
 * depend on the seeds and the code only, not on the worker count.
 */
export interface MatchSetup {
  a: PlayerSpec;
  b: PlayerSpec;
  vs: readonly PlayerSpec[];
  bounds: SprtBounds;
  /** One pair per seed, in this order; the match stops at the SPRT's decision or after the last. */
  seeds: readonly number[];
}

export interface PairPlan {
  seed: number;
  opponent: PlayerSpec | null;
  /** The pair's tasks are tasks[first] .. tasks[first + count - 1]. */
  first: number;
  count: number;
}

export interface GameRecord extends DuelGame {
  white: string;
  black: string;
}

export interface PairRecord {
  seed: number;
  opponent: string | null;
  games: GameRecord[];
  /** A's score in each of the pair's two (compared) games; null when the pair is void. */
  scores: [number, number] | null;
  /** Why the pair counts for nothing (a world crashed or timed out, or its game did not finish). */
  void: string | null;
  /** Invariants a duel world broke, as `invariant (n)`; the game still counts. */
  broken: string[];
}

export function planMatch(setup: MatchSetup): { pairs: PairPlan[]; tasks: DuelTask[] } {
  const event = matchEventName(setup);
  const duel = (white: PlayerSpec, black: PlayerSpec, seed: number): DuelTask => ({
    seed,
    white,
    black,
    pgn: {
      event,
      names: { [DUEL_HANDLES.white]: white.name, [DUEL_HANDLES.black]: black.name },
      tags: [],
    },
  });
  const pairs: PairPlan[] = [];
  const tasks: DuelTask[] = [];
  setup.seeds.forEach((seed, k) => {
    const opponent = setup.vs.length > 0 ? setup.vs[k % setup.vs.length]! : null;
    const { a, b } = setup;
    const games = opponent
      ? [duel(a, opponent, seed), duel(opponent, a, seed), duel(b, opponent, seed), duel(opponent, b, seed)]
      : [duel(a, b, seed), duel(b, a, seed)];
    games.forEach((task, g) => (task.pgn.tags = pairTags(setup, k + 1, g, seed, opponent !== null)));
    pairs.push({ seed, opponent, first: tasks.length, count: games.length });
    tasks.push(...games);
  });
  return { pairs, tasks };
}

/** The PGN Event of every duel game of the match. */
export function matchEventName(setup: MatchSetup): string {
  return `agent-chess-sim compare: ${setup.a.name} vs ${setup.b.name}`;
}

/**
 * A duel game's own tags: `Round` pair.game (PGN's sub-round form), `Pair` and `Seed`, and the colour each
 * compared player had in it (`AColour`, `BColour`: White, Black, or `-` for a game it is not in, as B's
 * games against a --vs opponent are for A).
 */
function pairTags(
  setup: MatchSetup,
  pair: number,
  game: number,
  seed: number,
  throughOpponent: boolean,
): Array<[string, string]> {
  // Head to head: A is White in game 0 and Black in game 1. Through an opponent: A's games come first, then B's.
  const colours: Array<[string, string]> = throughOpponent
    ? [
        ['White', '-'],
        ['Black', '-'],
        ['-', 'White'],
        ['-', 'Black'],
      ]
    : [
        ['White', 'Black'],
        ['Black', 'White'],
      ];
  const [aColour, bColour] = colours[game]!;
  return [
    ['Round', `${pair}.${game + 1}`],
    ['Pair', String(pair)],
    ['Seed', String(seed)],
    ['PlayerA', setup.a.name],
    ['AColour', aColour],
    ['PlayerB', setup.b.name],
    ['BColour', bColour],
  ];
}

/** A pair's record from its tasks' results (in task order). */
export function pairRecord(setup: MatchSetup, plan: PairPlan, results: readonly DuelResult[]): PairRecord {
  const players = pairPlayers(setup, plan);
  const games = results.map(duelGame);
  const broken = results.flatMap((r) =>
    r.invariants.filter((i) => !i.passed).map((i) => `${i.name} (${i.violations})`),
  );
  const base = { seed: plan.seed, opponent: plan.opponent?.name ?? null, broken };
  const problem = games.find((g): g is string => typeof g === 'string');
  const played = games
    .filter((g): g is DuelGame => typeof g !== 'string')
    .map((g, i) => ({ white: players[i]![0], black: players[i]![1], ...g }));
  if (problem !== undefined) return { ...base, games: played, scores: null, void: problem };
  const all = games as DuelGame[];
  const scores: [number, number] = plan.opponent
    ? [compared(all[0]!, all[2]!, 'white'), compared(all[1]!, all[3]!, 'black')]
    : [scoreFor(all[0]!, 'white'), scoreFor(all[1]!, 'black')];
  return { ...base, games: played, scores, void: null };
}

/** White and Black of each of the pair's worlds, by name. */
function pairPlayers(setup: MatchSetup, plan: PairPlan): Array<[string, string]> {
  const [a, b, o] = [setup.a.name, setup.b.name, plan.opponent?.name];
  return o === undefined
    ? [
        [a, b],
        [b, a],
      ]
    : [
        [a, o],
        [o, a],
        [b, o],
        [o, b],
      ];
}

/** A's game against B's game, both with `colour` against the same opponent: 1 when A scored more, 1/2 when equal. */
function compared(gameOfA: DuelGame, gameOfB: DuelGame, colour: 'white' | 'black'): number {
  const [sa, sb] = [scoreFor(gameOfA, colour), scoreFor(gameOfB, colour)];
  return sa > sb ? 1 : sa === sb ? 0.5 : 0;
}

/**
 * The match as it stands: pairs taken strictly in seed order as their results arrive, the SPRT updated
 * after each counted pair, and nothing taken once it has decided.
 */
export class MatchTally {
  readonly records: PairRecord[] = [];
  readonly pairs: PairCounts = { lossLoss: 0, lossDraw: 0, even: 0, winDraw: 0, winWin: 0 };
  readonly games: GameCounts = { wins: 0, draws: 0, losses: 0 };
  /** The PGN of every game of the pairs taken, in seed order then task order (void pairs' finished games too). */
  readonly pgn: string[] = [];
  state: SprtState;
  readonly #setup: MatchSetup;
  readonly #plan: readonly PairPlan[];
  readonly #results = new Map<number, DuelResult>();
  readonly #onPair: (record: PairRecord, tally: MatchTally) => void;

  constructor(
    setup: MatchSetup,
    plan: readonly PairPlan[],
    onPair: (record: PairRecord, tally: MatchTally) => void = () => {},
  ) {
    this.#setup = setup;
    this.#plan = plan;
    this.#onPair = onPair;
    this.state = sprtState(0, setup.bounds);
  }

  get decided(): boolean {
    return this.state.decision !== 'continue';
  }

  get counted(): number {
    return this.records.filter((r) => r.void === null).length;
  }

  /** Takes task `index`'s result, then every pair now complete at the front of the seed order. */
  accept(index: number, result: DuelResult): void {
    this.#results.set(index, result);
    while (!this.decided && this.records.length < this.#plan.length) {
      const plan = this.#plan[this.records.length]!;
      const results = Array.from({ length: plan.count }, (_, i) => this.#results.get(plan.first + i));
      if (results.some((r) => r === undefined)) return;
      for (const r of results as DuelResult[]) if (r.pgn) this.pgn.push(r.pgn);
      this.#take(pairRecord(this.#setup, plan, results as DuelResult[]));
    }
  }

  #take(record: PairRecord): void {
    this.records.push(record);
    if (record.scores) {
      for (const score of record.scores) this.#countGame(score);
      this.#countPair(record.scores[0] + record.scores[1]);
      this.state = sprtState(pairsLlr(this.pairs, this.#setup.bounds), this.#setup.bounds);
    }
    this.#onPair(record, this);
  }

  #countGame(score: number): void {
    if (score === 1) this.games.wins++;
    else if (score === 0) this.games.losses++;
    else this.games.draws++;
  }

  #countPair(total: number): void {
    const key = (['lossLoss', 'lossDraw', 'even', 'winDraw', 'winWin'] as const)[total * 2]!;
    this.pairs[key]++;
  }
}
