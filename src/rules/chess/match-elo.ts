/**
 * The Elo difference a match result implies, with its 95% interval, the way engine match runners
 * (cutechess-cli, fastchess) report it (ISSUE 6): the score s = (W + D/2) / N, Elo = -400·log10(1/s - 1),
 * and the interval from the per-game score variance: se = sqrt(var / N), bounds s ± 1.96·se converted to
 * Elo. Used by the engine calibration (src/sim/calibration.ts); never by the platform's ratings.
 *
 * Decisions (docs/rules.md):
 * - A perfect score (s = 0 or 1) implies an infinite difference; its variance is zero, so the normal
 *   interval says nothing. The finite bound is then the exact binomial one: scoring N of N has
 *   probability p^N, so the 95% two-sided bound is the p with p^N = 0.025 (s = 0 mirrors it).
 * - Where a finite number is needed (a ladder), `estimate` is the Elo itself, or for a perfect score the
 *   median-unbiased one from the same binomial: the p with p^N = 0.5, at which N of N is as likely as not.
 * - A bound of the normal interval at or past 0 or 1 is infinite in that direction.
 */

export interface MatchResult {
  wins: number;
  draws: number;
  losses: number;
}

export interface MatchElo {
  games: number;
  /** (W + D/2) / N, from the first player's side. */
  score: number;
  /** The first player's Elo advantage; ±Infinity for a perfect score. */
  elo: number;
  /** `elo` when finite; for a perfect score, the median-unbiased Elo (always finite). */
  estimate: number;
  /** 95% interval; either bound may be infinite. */
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.96;
/** The tail probability each side of a 95% interval leaves out. */
const TAIL = (1 - 0.95) / 2;
const MEDIAN = 0.5;

/** The Elo difference at which the expected score is `score`; ±Infinity at 1 and 0. */
export function eloFromScore(score: number): number {
  if (score >= 1) return Infinity;
  if (score <= 0) return -Infinity;
  // -400·log10(1/s - 1) written as 400·log10(s / (1 - s)): the same value, and +0 (not -0) at s = 0.5.
  return 400 * Math.log10(score / (1 - score));
}

export function matchElo(result: MatchResult): MatchElo {
  assertCounts(result);
  const { wins, draws, losses } = result;
  const games = wins + draws + losses;
  const score = (wins + draws / 2) / games;
  const elo = eloFromScore(score);
  // N of N has probability p^N: the p that makes it q likely, as an Elo difference.
  const perfect = (q: number) => eloFromScore(q ** (1 / games));
  if (score === 1)
    return { games, score, elo, estimate: perfect(MEDIAN), low: perfect(TAIL), high: Infinity };
  if (score === 0)
    return { games, score, elo, estimate: -perfect(MEDIAN), low: -Infinity, high: -perfect(TAIL) };
  const variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games;
  const margin = Z95 * Math.sqrt(variance / games);
  return {
    games,
    score,
    elo,
    estimate: elo,
    low: eloFromScore(score - margin),
    high: eloFromScore(score + margin),
  };
}

/** Counts are whole, non-negative, and at least one game was played: anything else is a caller's bug. */
function assertCounts({ wins, draws, losses }: MatchResult): void {
  for (const n of [wins, draws, losses]) {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new RangeError(`match counts must be whole and non-negative: ${wins}/${draws}/${losses}`);
  }
  if (wins + draws + losses === 0) throw new RangeError('a match result needs at least one game');
}

/**
 * Likelihood of superiority, as cutechess computes it: the chance the first player is the stronger, from
 * its decisive games (draws say nothing): ½·(1 + erf((W - L) / √(2(W + L)))); one half with none.
 */
export function likelihoodOfSuperiority(wins: number, losses: number): number {
  if (wins + losses === 0) return 0.5;
  return 0.5 * (1 + erf((wins - losses) / Math.sqrt(2 * (wins + losses))));
}

/** The error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7: far finer than a printed tenth of a percent). */
export function erf(x: number): number {
  if (x === 0) return 0; // the approximation leaves 1e-9 there; an even match must read exactly 50 %
  const sign = x < 0 ? -1 : 1;
  const a = Math.abs(x);
  const t = 1 / (1 + 0.3275911 * a);
  const poly =
    t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return sign * (1 - poly * Math.exp(-a * a));
}
