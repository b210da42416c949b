import { eloFromScore, matchElo, Z95 } from '../rules/chess/match-elo.js';
import type { GameCounts, PairCounts } from '../rules/chess/sprt.js';
import { losPercent } from '../report/match-lines.js';

/**
 * The Elo difference of a paired match, as fastchess reports one played in colour-swapped pairs: the mean
 * pair score s (a pair scores 0, 1/4, 1/2, 3/4 or 1 of the whole) with its variance over pairs, se =
 * sqrt(var / pairs), the interval s ± 1.96·se, each end converted to Elo (an end at or past 0 or 1 is
 * infinite). The pairs, not the games, are the independent draws: two games from one seed share the
 * seed's luck, and the per-game variance would understate the spread. A perfect pair score has no spread,
 * so there the games give cutechess's binomial bound (src/rules/chess/match-elo.ts).
 */
export interface EloEstimate {
  elo: number;
  low: number;
  high: number;
}

const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1];

export function pairElo(pairs: PairCounts, games: GameCounts): EloEstimate {
  const counts = [pairs.lossLoss, pairs.lossDraw, pairs.even, pairs.winDraw, pairs.winWin];
  const n = counts.reduce((sum, c) => sum + c, 0);
  if (n === 0) throw new RangeError('an Elo estimate needs at least one pair');
  const score = counts.reduce((sum, c, i) => sum + c * PAIR_SCORES[i]!, 0) / n;
  if (score <= 0 || score >= 1) {
    const m = matchElo(games);
    return { elo: m.elo, low: m.low, high: m.high };
  }
  const variance = counts.reduce((sum, c, i) => sum + c * (PAIR_SCORES[i]! - score) ** 2, 0) / n;
  const margin = Z95 * Math.sqrt(variance / n);
  return { elo: eloFromScore(score), low: eloFromScore(score - margin), high: eloFromScore(score + margin) };
}

/** `Elo difference: 260.5 +/- 80.1, LOS: 100.0 %, DrawRatio: 26.7 %`, the interval written out when a bound is open. */
export function pairEloLine(estimate: EloEstimate, games: GameCounts): string {
  const total = games.wins + games.draws + games.losses;
  const los = losPercent(games);
  const tail = `LOS: ${los === null ? 'n/a' : `${los.toFixed(1)} %`}, DrawRatio: ${((100 * games.draws) / total).toFixed(1)} %`;
  const { elo, low, high } = estimate;
  if (Number.isFinite(low) && Number.isFinite(high))
    return `Elo difference: ${elo.toFixed(1)} +/- ${((high - low) / 2).toFixed(1)}, ${tail}`;
  return `Elo difference: ${eloText(elo)} (95%: ${eloText(low)} to ${eloText(high)}), ${tail}`;
}

function eloText(x: number): string {
  return Number.isFinite(x) ? x.toFixed(1) : x > 0 ? '+inf' : '-inf';
}

/** `LLR: 2.95 (-2.94, 2.94) [0.00, 10.00]`, as fastchess prints it. */
export function llrLine(llr: number, lower: number, upper: number, elo0: number, elo1: number): string {
  return `LLR: ${llr.toFixed(2)} (${lower.toFixed(2)}, ${upper.toFixed(2)}) [${elo0.toFixed(2)}, ${elo1.toFixed(2)}]`;
}
