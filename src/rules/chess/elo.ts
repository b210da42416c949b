import type { KFactorPolicy } from '../ruleset.js';

/**
 * Standard Elo (SPEC: "standard Elo; draws affect ratings less"). Ratings are integers. A change is
 * K * (score - expected) rounded half away from zero, and it is always computed in one canonical
 * orientation (from the lower-rated side, ties from the first argument), so the two players' changes are
 * exact negatives of each other whenever their K is equal: the sum of all ratings never drifts.
 */
export type Score = 0 | 0.5 | 1;

export function expectedScore(rating: number, opponent: number): number {
  return 1 / (1 + 10 ** ((opponent - rating) / 400));
}

/** Odd-symmetric rounding: round(-x) === -round(x), which plain Math.round lacks at .5. */
export function roundHalfAwayFromZero(x: number): number {
  const r = Math.round(Math.abs(x));
  return x < 0 && r !== 0 ? -r : r; // never -0
}

/** The change of `rating` after scoring `score` against `opponent`, with factor `k`. */
export function eloChange(rating: number, opponent: number, score: Score, k: number): number {
  if (rating > opponent) return -eloChange(opponent, rating, (1 - score) as Score, k);
  return roundHalfAwayFromZero(k * (score - expectedScore(rating, opponent)));
}

export interface RatedPlayer {
  readonly rating: number;
  readonly gamesPlayed: number;
  readonly peakRating: number;
}

export function kFactorFor(player: RatedPlayer, policy: KFactorPolicy): number {
  if (policy.mode === 'fixed') return policy.k;
  if (player.peakRating >= policy.masterThreshold) return 10;
  return player.gamesPlayed < policy.provisionalGames ? 40 : 20;
}

export interface EloUpdate {
  readonly whiteDelta: number;
  readonly blackDelta: number;
  /** Both sides were rated with the same K, so the two deltas cancel exactly. */
  readonly equalK: boolean;
}

/** Rating changes for one finished game; `whiteScore` is 1, 0.5 or 0. */
export function rateGame(
  white: RatedPlayer,
  black: RatedPlayer,
  whiteScore: Score,
  policy: KFactorPolicy,
): EloUpdate {
  const whiteK = kFactorFor(white, policy);
  const blackK = kFactorFor(black, policy);
  const whiteDelta = eloChange(white.rating, black.rating, whiteScore, whiteK);
  const blackDelta = eloChange(black.rating, white.rating, (1 - whiteScore) as Score, blackK);
  return { whiteDelta, blackDelta, equalK: whiteK === blackK };
}
