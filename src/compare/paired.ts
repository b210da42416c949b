import { studentTQuantile } from '../rules/stats/student-t.js';

/**
 * Paired differences over seeds: the same seed run under side a and side b gives one difference b - a per
 * metric, and the seeds are a sample of the scenario's seed space, so the mean difference gets a Student t
 * interval with n - 1 degrees of freedom. Pairing removes the seed-to-seed spread both sides share, which
 * is why the interval is far narrower than comparing two independent sweeps.
 *
 * Decisions (docs/rules.md, Simulation):
 * - t(0.975) is computed for the exact df (src/rules/stats/student-t.ts): a printed table's 1.96 past
 *   120 df would be narrower than the truth.
 * - With one seed there is no spread to estimate: the interval is null. Identical sides give 0 ± 0.
 * - Every figure is rounded to 6 decimals, half away from zero, so that swapping the sides negates each
 *   figure exactly and one set of runs gives one set of bytes.
 */
export interface PairedStats {
  n: number;
  mean_a: number;
  mean_b: number;
  /** Mean of the per-seed differences b - a. */
  mean_diff: number;
  /** Sample standard deviation of the differences (n - 1). */
  sd_diff: number;
  /** 95% interval of the mean difference; null with fewer than two seeds. */
  low: number | null;
  high: number | null;
}

/** t(0.975) with `df` degrees of freedom (df >= 1), computed (src/rules/stats/student-t.ts), never tabled. */
export function tCritical(df: number): number {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  return studentTQuantile(0.975, df);
}

/** The paired statistics of `a` and `b`, index i of each being the same seed. */
export function pairedStats(a: readonly number[], b: readonly number[]): PairedStats {
  if (a.length !== b.length)
    throw new RangeError(`paired samples differ in length: ${a.length} and ${b.length}`);
  if (a.length === 0) throw new RangeError('paired statistics need at least one seed');
  const n = a.length;
  const diffs = a.map((x, i) => b[i]! - x);
  const meanDiff = mean(diffs);
  const sd = n > 1 ? Math.sqrt(diffs.reduce((sum, d) => sum + (d - meanDiff) ** 2, 0) / (n - 1)) : 0;
  const margin = n > 1 ? tCritical(n - 1) * (sd / Math.sqrt(n)) : null;
  return {
    n,
    mean_a: round6(mean(a)),
    mean_b: round6(mean(b)),
    mean_diff: round6(meanDiff),
    sd_diff: round6(sd),
    low: margin === null ? null : round6(meanDiff - margin),
    high: margin === null ? null : round6(meanDiff + margin),
  };
}

/** Whether the interval leaves 0 out: the two sides differ at the 95% level. */
export function excludesZero(stats: PairedStats): boolean {
  return stats.low !== null && stats.high !== null && (stats.low > 0 || stats.high < 0);
}

/** Summed in the order given (seed order), so the same values always give the same bits. */
function mean(values: readonly number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** 6 decimals, half away from zero (symmetric, so a negated input gives the negated output), never -0. */
export function round6(value: number): number {
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * 1e6)) / 1e6;
  return rounded + 0;
}
