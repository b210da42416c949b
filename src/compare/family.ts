import { studentTCdf, studentTQuantile } from '../rules/stats/student-t.js';

/**
 * The paired t test of one metric and what it could have seen. The differences b - a over n seeds give
 * t = mean / (sd / sqrt n) with n - 1 degrees of freedom; its two-sided p goes into the family's Holm
 * correction (src/rules/stats/holm.ts), and the interval is drawn at the per-test level Holm gives the
 * metric, so it leaves 0 out exactly when the metric is flagged.
 *
 * Decisions:
 * - Differences all equal (sd 0), where t is undefined: identical on every seed gives p = 1; the same
 *   non-zero shift on every seed gives the sign-flip permutation test's p, 2 / 2^n (the shift and its
 *   mirror are the two most extreme of the 2^n sign patterns). Counts are integers, so a few seeds can
 *   agree by chance: two seeds that both moved by 5 prove nothing (p = 0.5), eight do (p = 0.0078).
 * - Power (what a metric could have shown): 80% power at Holm's strictest level, alpha / m, the level a
 *   lone true change has to clear. The smallest detectable mean difference is
 *   (t(1 - alpha/2m) + t(0.8)) sd / sqrt n with n - 1 df (the usual normal-shift approximation with t
 *   quantiles in place of z).
 */
export const FAMILY_ALPHA = 0.05;
export const POWER = 0.8;
/** Below this standardised effect (Cohen's "small", 0.2 sd) a metric's movement reads as noise: no seed-count warning. */
export const SMALL_EFFECT = 0.2;
/** The seeds-needed search stops here: past it the warning says "more than" this many. */
export const MAX_SEEDS_NEEDED = 100_000;

export interface PairedTest {
  n: number;
  mean: number;
  sd: number;
  /** Two-sided p of the paired t test; null with fewer than two seeds. */
  p: number | null;
}

export function pairedTest(diffs: readonly number[]): PairedTest {
  const n = diffs.length;
  const mean = diffs.reduce((sum, d) => sum + d, 0) / n;
  const sd = n > 1 ? Math.sqrt(diffs.reduce((sum, d) => sum + (d - mean) ** 2, 0) / (n - 1)) : 0;
  if (n < 2) return { n, mean, sd, p: null };
  if (sd === 0) return { n, mean, sd, p: mean === 0 ? 1 : 2 ** (1 - n) };
  const t = Math.abs(mean) / (sd / Math.sqrt(n));
  return { n, mean, sd, p: Math.min(1, 2 * studentTCdf(-t, n - 1)) };
}

/**
 * Half-width of the two-sided interval of the mean difference at per-test `level` (e.g. 0.05 / 41); null
 * with one seed, or for a shift with no spread, whose t interval would be a point however few the seeds.
 */
export function halfWidth(test: PairedTest, level: number): number | null {
  if (test.n < 2 || (test.sd === 0 && test.mean !== 0)) return null;
  return studentTQuantile(1 - level / 2, test.n - 1) * (test.sd / Math.sqrt(test.n));
}

/** The smallest mean difference n seeds detect with 80% power at per-test `level`; null with fewer than two seeds. */
export function minimumDetectable(test: PairedTest, level: number): number | null {
  if (test.n < 2) return null;
  return detectableInSds(test.n, level) * test.sd;
}

/** Seeds needed to detect a shift of `effect` standard deviations with 80% power at per-test `level`. */
export function seedsNeeded(effect: number, level: number): number {
  if (!(effect > 0)) return MAX_SEEDS_NEEDED + 1;
  // detectableInSds falls as n grows: double past the answer, then halve the bracket.
  let low = 1;
  let high = 2;
  while (detectableInSds(high, level) > effect) {
    if (high > MAX_SEEDS_NEEDED) return MAX_SEEDS_NEEDED + 1;
    [low, high] = [high, high * 2];
  }
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (detectableInSds(mid, level) > effect) low = mid;
    else high = mid;
  }
  return high;
}

function detectableInSds(n: number, level: number): number {
  const df = n - 1;
  return (studentTQuantile(1 - level / 2, df) + studentTQuantile(POWER, df)) / Math.sqrt(n);
}
