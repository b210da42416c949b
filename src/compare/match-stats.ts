import { eloFromScore, erf, scoreInterval } from '../rules/chess/match-elo.js';
import type { PairCounts } from '../rules/chess/sprt.js';

/**
 * The statistics of a match played in colour-swapped pairs, as fastchess reports one in pentanomial mode.
 * The pairs, not the games, are the independent draws: two games from one seed share the seed's luck,
 * so every figure here is over pairs (a pair scores 0, 1/4, 1/2, 3/4 or 1 of the whole):
 * - Elo: the project's one score interval (src/rules/chess/match-elo.ts) on the mean pair score, with the
 *   prior's two virtual drawn games as one virtual pair of score one half, and the variance of a pair the
 *   observed spread of pair scores (that virtual pair counted as half a WW and half an LL pair, so the
 *   spread is never zero). A perfect pair score is bounded from the pairs like any other (never from the
 *   games as if they were independent): 10 pairs won of 10 read
 *   +529 [+130, +928] (the exact binomial bound over the 10 pairs is +140; over the 20 games, +277).
 * - LOS: fastchess's pentanomial one, Φ((s - 1/2) / sqrt(var / pairs)), var the spread of pair scores;
 *   with no spread, 100 % above an even score, 0 % below, 50 % at it.
 * - DrawRatio: the share of pairs that came out even (a win and a loss, or two draws), as fastchess.
 * The per-game LOS and draw ratio are cutechess's (src/report/match-lines.ts); compare.json keeps them
 * beside, labelled so.
 */
export interface EloEstimate {
  elo: number;
  low: number;
  high: number;
}

const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1];

function pairList(pairs: PairCounts): number[] {
  return [pairs.lossLoss, pairs.lossDraw, pairs.even, pairs.winDraw, pairs.winWin];
}

function pairMoments(pairs: PairCounts): { n: number; score: number; variance: number } {
  const counts = pairList(pairs);
  const n = counts.reduce((sum, c) => sum + c, 0);
  if (n === 0) throw new RangeError('a pair statistic needs at least one pair');
  const score = counts.reduce((sum, c, i) => sum + c * PAIR_SCORES[i]!, 0) / n;
  const variance = counts.reduce((sum, c, i) => sum + c * (PAIR_SCORES[i]! - score) ** 2, 0) / n;
  return { n, score, variance };
}

export function pairElo(pairs: PairCounts): EloEstimate {
  const counts = pairList(pairs);
  const { n, score } = pairMoments(pairs);
  // The spread of pair scores around s', the prior's virtual pair counted as half a WW and half an LL pair
  // (the same score as an even pair, but with spread: no record reads as certain).
  const spread = (s: number) =>
    (counts.reduce((sum, c, i) => sum + c * (PAIR_SCORES[i]! - s) ** 2, 0) +
      0.5 * (1 - s) ** 2 +
      0.5 * s * s) /
    (n + 1);
  const interval = scoreInterval(score * n, n, 2, spread);
  return {
    elo: eloFromScore(interval.score),
    low: eloFromScore(interval.low),
    high: eloFromScore(interval.high),
  };
}

/** fastchess's pentanomial likelihood of superiority, in percent. */
export function pairLosPercent(pairs: PairCounts): number {
  const { n, score, variance } = pairMoments(pairs);
  if (variance === 0) return score > 0.5 ? 100 : score < 0.5 ? 0 : 50;
  return 50 * (1 + erf((score - 0.5) / Math.sqrt((2 * variance) / n)));
}

/** The share of even pairs, in percent. */
export function pairDrawRatioPercent(pairs: PairCounts): number {
  const { n } = pairMoments(pairs);
  return (100 * pairs.even) / n;
}

/**
 * `Elo difference: +260.5 [+180.1, +341.0] (95%), LOS: 100.0 %, DrawRatio: 26.7 % (by pairs)`; after the
 * SPRT stopped the match early the Elo is marked as not corrected for that stop (an early stop on a lucky
 * run overstates the difference; fishtest corrects it, this line only says so).
 */
export function pairEloLine(pairs: PairCounts, stoppedEarly: boolean): string {
  const { elo, low, high } = pairElo(pairs);
  const note = stoppedEarly ? ', not corrected for the SPRT stopping early' : '';
  const tail = `LOS: ${pairLosPercent(pairs).toFixed(1)} %, DrawRatio: ${pairDrawRatioPercent(pairs).toFixed(1)} % (by pairs)`;
  return `Elo difference: ${signedTenth(elo)} [${signedTenth(low)}, ${signedTenth(high)}] (95%${note}), ${tail}`;
}

function signedTenth(x: number): string {
  const text = x.toFixed(1);
  return x > 0 && text !== '0.0' ? `+${text}` : text === '-0.0' ? '0.0' : text;
}

/** `LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]`, as fastchess prints it. */
export function llrLine(llr: number, lower: number, upper: number, elo0: number, elo1: number): string {
  return `LLR: ${llr.toFixed(2)} (${lower.toFixed(2)}, ${upper.toFixed(2)}) [${elo0.toFixed(2)}, ${elo1.toFixed(2)}]`;
}
