import { Z95 } from '../rules/chess/match-elo.js';

/**
 * Paired differences over seeds: the same seed run under side a and side b gives one difference b - a per
 * metric, and the seeds are a sample of the scenario's seed space, so the mean difference gets a Student t
 * interval with n - 1 degrees of freedom. Pairing removes the seed-to-seed spread both sides share, which
 * is why the interval is far narrower than comparing two independent sweeps.
 *
 * Decisions (docs/rules.md, Simulation):
 * - t(0.975) comes from the usual printed table: df 1..30, then 40, 60 and 120, each df past 30 using the
 *   nearest tabulated df below it (a slightly wider, never narrower, interval), and 1.96 past 120.
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

/** Two-sided 95% critical values of Student's t, df 1..30. */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131,
  2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
/** Rows of the printed table past 30 degrees of freedom. */
const T_975_WIDE: ReadonlyArray<[number, number]> = [
  [120, 1.98],
  [60, 2.0],
  [40, 2.021],
];

/** t(0.975) with `df` degrees of freedom (df >= 1). */
export function tCritical(df: number): number {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  if (df <= T_975.length) return T_975[df - 1]!;
  if (df > 120) return Z95;
  return T_975_WIDE.find(([atLeast]) => df >= atLeast)?.[1] ?? T_975[T_975.length - 1]!;
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
