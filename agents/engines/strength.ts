/**
 * Opponents of a requested strength: a scenario asks for "Elo mean 1500, sd 200" and gets engine levels
 * whose calibrated Elo (agents/engines/ladder.json, written by `agent-chess-sim calibrate`) matches. Pure
 * given the ladder: the draws come from the caller's seeded stream.
 */
import type { Rng } from '../../src/kernel/rng.js';
import shipped from './ladder.json' with { type: 'json' };

/** One level's measured strength; a null bound is unbounded (a link below it has an infinite bound, e.g. a perfect score). */
export interface LadderLevel {
  name: string;
  /** The settings measured (levels.ts); a ladder is stale once they change. */
  nodes: number;
  multiPv: number;
  spreadCp: number;
  elo: number;
  low: number | null;
  high: number | null;
  /** Games that placed this level: its link in the chain plus every link below it. */
  games: number;
}

/** One mini-match, from `first`'s side. */
export interface LadderPairing {
  first: string;
  second: string;
  wins: number;
  draws: number;
  losses: number;
  elo: number | null;
  low: number | null;
  high: number | null;
}

/** The calibrate command's output file. */
export interface Ladder {
  /** How the numbers were made, in words, so the file explains itself. */
  method: string;
  anchor: { name: string; elo: number };
  seed: string;
  gamesPerPairing: number;
  checkGames: number;
  nodesScale: number;
  /** In the order of LEVELS (weakest first by design; test/unit/ladder.test.ts holds the shipped file to it). */
  levels: LadderLevel[];
  pairings: LadderPairing[];
}

export interface EloSpread {
  mean: number;
  sd: number;
}

export const SHIPPED_LADDER: Ladder = checkLadder(shipped);

/**
 * `count` level names: each an Elo target drawn from N(mean, sd) mapped to the nearest calibrated level.
 * The same stream state gives the same names.
 */
export function levelsFor(
  spread: EloSpread,
  count: number,
  rng: Rng,
  ladder: Ladder = SHIPPED_LADDER,
): string[] {
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`levelsFor: count must be a whole number, got ${count}`);
  if (!(spread.sd >= 0) || !Number.isFinite(spread.mean))
    throw new RangeError(`levelsFor: bad spread ${JSON.stringify(spread)}`);
  return Array.from(
    { length: count },
    () => nearestLevel(spread.mean + spread.sd * standardNormal(rng), ladder).name,
  );
}

/** The level whose Elo is closest to `elo`; a tie goes to the weaker level. */
export function nearestLevel(elo: number, ladder: Ladder = SHIPPED_LADDER): LadderLevel {
  let best = ladder.levels[0];
  if (!best) throw new Error('the ladder has no levels');
  for (const level of ladder.levels) {
    if (Math.abs(level.elo - elo) < Math.abs(best.elo - elo)) best = level;
  }
  return best;
}

/**
 * One N(0, 1) draw by Box-Muller from two uniform draws. `1 - u` keeps the logarithm's argument in (0, 1],
 * since the stream's floats are in [0, 1).
 */
export function standardNormal(rng: Rng): number {
  const u = 1 - rng.float();
  const v = rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** A ladder lists at least one named level with a finite Elo: that is all nearest-level lookups need. */
export function checkLadder(ladder: Ladder): Ladder {
  if (!Array.isArray(ladder.levels) || ladder.levels.length === 0) throw new Error('ladder.json: no levels');
  ladder.levels.forEach((level, i) => {
    if (typeof level.name !== 'string' || !Number.isFinite(level.elo))
      throw new Error(`ladder.json: level ${i} is malformed`);
  });
  return ladder;
}
