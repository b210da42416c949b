/**
 * The Elo difference a match result implies, with its 95% interval (ISSUE 6, ISSUE 26): one method for
 * every score interval the project prints (console, verdict tables, report.json and report.html,
 * calibrate, `run --agent`, `compare --agent` over pairs). Never on the platform's ratings.
 *
 * The method (docs/rules.md), on the mean score of independent units (games, or colour-swapped pairs):
 * - A weak prior of two virtual drawn games against an equal player (BayesElo's default prior, one
 *   virtual even pair when the units are pairs) is added to the record: score s' = (points + 1) / (games + 2)
 *   in games. It keeps a perfect or zero score finite: 2 wins in 2 read +191, not +inf.
 * - The 95% interval is Wilson's score interval on s' over n' units, with the binomial variance s'(1 - s')
 *   (a draw counted as the half-win, half-loss it scores: never narrower than the variance W/D/L outcomes
 *   can have at that score, so the interval never claims a certainty the draws do not give). Wilson's
 *   interval has width > 0 for every n' and stays inside (0, 1) when 0 < s' < 1, so both bounds are finite.
 *   18 draws of 18 read 0 [-148, +148], not 0 [0, 0].
 * - Its bounds rise with each extra win and fall with each extra loss, so better records never get a
 *   lower bound below worse ones (10-0-0 gets +105, 10-1-0 gets +86).
 * - `elo` is the plain match-runner figure -400·log10(1/s - 1) of the observed score (±Infinity for a
 *   perfect score); `estimate` is the prior's, and the one printed beside the interval.
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
  /** The observed score's Elo advantage; ±Infinity for a perfect score. */
  elo: number;
  /** The Elo of the score with the prior's two virtual draws: always finite, inside [low, high]. */
  estimate: number;
  /** 95% interval, always finite and of positive width. */
  low: number;
  high: number;
}

/** z for a two-sided 95% interval. */
export const Z95 = 1.96;
/** The prior: this many virtual drawn games against an equal player, added to every record. */
export const PRIOR_DRAWS = 2;

/** The Elo difference at which the expected score is `score`; ±Infinity at 1 and 0. */
export function eloFromScore(score: number): number {
  if (score >= 1) return Infinity;
  if (score <= 0) return -Infinity;
  // -400·log10(1/s - 1) written as 400·log10(s / (1 - s)): the same value, and +0 (not -0) at s = 0.5.
  return 400 * Math.log10(score / (1 - score));
}

export interface ScoreInterval {
  /** The score with the prior added. */
  score: number;
  low: number;
  high: number;
}

/**
 * The score estimate and 95% interval of `points` scored over `units` independent units, each worth 1
 * (a game; a pair scores the mean of its two games), each unit standing for `gamesPerUnit` games. The
 * prior is PRIOR_DRAWS virtual drawn games, that is PRIOR_DRAWS / gamesPerUnit units of score one half.
 * A unit's variance is the binomial s'(1 - s') unless the caller estimates it (`unitVariance`, within
 * (0, s'(1 - s')]); Wilson's interval is then taken over the matching effective number of units,
 * n'·s'(1 - s')/variance. Games use the binomial (its lower bounds keep the order of records, which an
 * observed, draw-aware variance does not: 10-1-0 would get a higher one than 10-0-0); colour-swapped pairs
 * pass their observed spread (src/compare/match-stats.ts).
 */
export function scoreInterval(
  points: number,
  units: number,
  gamesPerUnit = 1,
  unitVariance?: (score: number) => number,
): ScoreInterval {
  if (!(units > 0) || !(points >= 0 && points <= units))
    throw new RangeError(`a score interval needs 0 <= points <= units and units > 0: ${points}/${units}`);
  const prior = PRIOR_DRAWS / gamesPerUnit;
  const n = units + prior;
  const s = (points + prior / 2) / n;
  const binomial = s * (1 - s);
  const variance = Math.min(binomial, unitVariance?.(s) ?? binomial);
  const effective = (n * binomial) / variance;
  const z2 = Z95 * Z95;
  const centre = (s + z2 / (2 * effective)) / (1 + z2 / effective);
  const half =
    (Z95 / (1 + z2 / effective)) * Math.sqrt(binomial / effective + z2 / (4 * effective * effective));
  return { score: s, low: centre - half, high: centre + half };
}

export function matchElo(result: MatchResult): MatchElo {
  assertCounts(result);
  const { wins, draws, losses } = result;
  const games = wins + draws + losses;
  const points = wins + draws / 2;
  const interval = scoreInterval(points, games);
  return {
    games,
    score: points / games,
    elo: eloFromScore(points / games),
    estimate: eloFromScore(interval.score),
    low: eloFromScore(interval.low),
    high: eloFromScore(interval.high),
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
 * Likelihood of superiority per game, as cutechess computes it (`compare --agent` reports the pair-based
 * one instead, src/compare/match-stats.ts): the chance the first player is the stronger, from
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
