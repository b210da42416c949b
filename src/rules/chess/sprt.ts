/**
 * The sequential probability ratio test engine match runners use to decide whether one player is
 * stronger than another (ISSUE 15, ISSUE 26): a generalized SPRT over game results (trinomial) or over
 * pairs of games with colours swapped (pentanomial), as fastchess computes it.
 *
 * H0: the Elo difference is elo0; H1: it is elo1. After each game (or pair) the log-likelihood ratio
 * LLR = N · Σ p_i · ln(q1_i / q0_i), where p is the observed distribution over outcomes and q_k the
 * distribution closest to p (maximum likelihood) whose expected score is the score elo_k implies. The
 * test stops when LLR leaves (ln(β/(1-α)), ln((1-β)/α)): above accepts H1, below accepts H0.
 *
 * Two models say what "Elo" in elo0/elo1 means (`model`, default normalized as in fastchess):
 * - normalized: Elo per unit of the score's spread, so the bounds mean the same whatever the draw rate:
 *   the score of nElo x is 0.5 + x·σ·ln(10)/800, σ the observed per-game standard deviation of the score
 *   (games), or √2 times the per-pair one (pairs: a pair is two games, its score their mean);
 * - logistic: the usual Elo, score 1 / (1 + 10^(-x/400)).
 *
 * Empty outcome classes count as 0.001 of an observation, as fastchess does, so no probability is zero.
 * The check against fastchess's own published figures is in test/property/sprt.test.ts.
 */
export type SprtModel = 'normalized' | 'logistic';
export const SPRT_MODELS: readonly SprtModel[] = ['normalized', 'logistic'];

export interface SprtBounds {
  elo0: number;
  elo1: number;
  alpha: number;
  beta: number;
  /** What elo0 and elo1 are measured in; normalized when left out, as fastchess's default. */
  model?: SprtModel;
}

export interface GameCounts {
  wins: number;
  draws: number;
  losses: number;
}

/** Pairs of games with colours swapped, by the pair's score from the first player's side. */
export interface PairCounts {
  /** 0 of 2 */
  lossLoss: number;
  /** 0.5 of 2 */
  lossDraw: number;
  /** 1 of 2: a win and a loss, or two draws */
  even: number;
  /** 1.5 of 2 */
  winDraw: number;
  /** 2 of 2 */
  winWin: number;
}

export type SprtDecision = 'H0' | 'H1' | 'continue';

export interface SprtState {
  llr: number;
  lower: number;
  upper: number;
  decision: SprtDecision;
}

const EMPTY_CLASS = 1e-3;
const GAME_SCORES = [0, 0.5, 1];
const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1];

/** The problem with the bounds, or undefined when they make a test. */
export function sprtProblem(bounds: SprtBounds): string | undefined {
  const { elo0, elo1, alpha, beta } = bounds;
  if (![elo0, elo1, alpha, beta].every(Number.isFinite)) return 'elo0, elo1, alpha and beta must be numbers';
  if (!(elo0 < elo1)) return 'elo0 must be less than elo1';
  if (!(alpha > 0 && alpha < 1 && beta > 0 && beta < 1)) return 'alpha and beta must be between 0 and 1';
  if (alpha + beta >= 1) return 'alpha + beta must be less than 1';
  return undefined;
}

export function sprtLimits(bounds: SprtBounds): { lower: number; upper: number } {
  return {
    lower: Math.log(bounds.beta / (1 - bounds.alpha)),
    upper: Math.log((1 - bounds.beta) / bounds.alpha),
  };
}

export function gamesLlr(counts: GameCounts, bounds: SprtBounds): number {
  return llr([counts.losses, counts.draws, counts.wins], GAME_SCORES, bounds);
}

export function pairsLlr(counts: PairCounts, bounds: SprtBounds): number {
  return llr(
    [counts.lossLoss, counts.lossDraw, counts.even, counts.winDraw, counts.winWin],
    PAIR_SCORES,
    bounds,
  );
}

export function sprtState(llrValue: number, bounds: SprtBounds): SprtState {
  const { lower, upper } = sprtLimits(bounds);
  const decision: SprtDecision = llrValue >= upper ? 'H1' : llrValue <= lower ? 'H0' : 'continue';
  return { llr: llrValue, lower, upper, decision };
}

/** The expected score of an Elo advantage (logistic). */
export function scoreFromElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

/** The expected score of a normalized Elo, given the per-game standard deviation of the score. */
export function scoreFromNormalizedElo(nelo: number, perGameSd: number): number {
  return 0.5 + (nelo * perGameSd * Math.LN10) / 800;
}

function llr(counts: number[], scores: number[], bounds: SprtBounds): number {
  if (counts.every((c) => c === 0)) return 0;
  const regular = counts.map((c) => (c > 0 ? c : EMPTY_CLASS));
  const total = regular.reduce((a, b) => a + b, 0);
  const observed = regular.map((c) => c / total);
  const target = targetScore(counts, scores, bounds);
  if (target === null) return 0;
  const [s0, s1] = [target(bounds.elo0), target(bounds.elo1)];
  // A hypothesis whose score leaves the outcomes' range cannot be fitted: no evidence either way yet.
  const [min, max] = [scores[0]!, scores[scores.length - 1]!];
  if (!(s0 > min && s0 < max && s1 > min && s1 < max)) return 0;
  const q0 = closestWithScore(observed, scores, s0);
  const q1 = closestWithScore(observed, scores, s1);
  let sum = 0;
  for (let i = 0; i < observed.length; i++) sum += observed[i]! * (Math.log(q1[i]!) - Math.log(q0[i]!));
  return total * sum;
}

/**
 * The score a hypothesis's Elo implies under the model; null when the normalized model has no spread to
 * scale by (every game, or pair, scored the same): then nothing is known yet, and the LLR is 0 as in fastchess.
 */
function targetScore(
  counts: number[],
  scores: number[],
  bounds: SprtBounds,
): ((elo: number) => number) | null {
  if ((bounds.model ?? 'normalized') === 'logistic') return scoreFromElo;
  const n = counts.reduce((a, b) => a + b, 0);
  const mean = counts.reduce((sum, c, i) => sum + c * scores[i]!, 0) / n;
  const variance = counts.reduce((sum, c, i) => sum + c * (scores[i]! - mean) ** 2, 0) / n;
  if (variance === 0) return null;
  // A pair's score is the mean of two games: its spread is the per-game one over √2.
  const perGameSd = Math.sqrt(scores.length === PAIR_SCORES.length ? 2 * variance : variance);
  return (elo) => scoreFromNormalizedElo(elo, perGameSd);
}

/**
 * The distribution q maximising Σ p_i·ln q_i with Σ q_i·a_i = s: q_i = p_i / (1 + λ(a_i - s)), where λ
 * is the root of Σ p_i (a_i - s) / (1 + λ(a_i - s)) = 0 in the interval that keeps every q_i positive.
 * The function falls as λ rises, so bisection finds the root (to double precision in 200 steps).
 */
function closestWithScore(p: number[], a: number[], s: number): number[] {
  const deviations = a.map((ai) => ai - s);
  const slope = (lambda: number) =>
    p.reduce((sum, pi, i) => sum + (pi * deviations[i]!) / (1 + lambda * deviations[i]!), 0);
  let low = -1 / Math.max(...deviations);
  let high = 1 / -Math.min(...deviations);
  low += Math.abs(low) * 1e-12;
  high -= Math.abs(high) * 1e-12;
  for (let step = 0; step < 200; step++) {
    const mid = (low + high) / 2;
    if (slope(mid) > 0) low = mid;
    else high = mid;
  }
  const lambda = (low + high) / 2;
  return p.map((pi, i) => pi / (1 + lambda * deviations[i]!));
}

/** LOS lives with the other match statistics; engine match runners print it beside the LLR. */
export { likelihoodOfSuperiority } from './match-elo.js';
