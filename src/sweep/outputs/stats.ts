/**
 * Statistics of one metric over a sweep's seeds. Percentiles are nearest-rank (the smallest value with at
 * least p% of the values at or below it), so each is a value some seed really had: no interpolation, and
 * integer metrics stay integers. The spread is the sample standard deviation (n - 1; 0 for one seed),
 * because a sweep's seeds are a sample of the scenario's seed space. Mean and sd are rounded to 6 decimals;
 * the input is summed in ascending order, so one set of values gives one set of bytes.
 */
export interface MetricStats {
  n: number;
  mean: number;
  sd: number;
  min: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export const PERCENTILES = [50, 90, 95, 99] as const;

export function metricStats(values: readonly number[]): MetricStats {
  if (values.length === 0) throw new Error('metricStats needs at least one value');
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / n;
  const squares = sorted.reduce((sum, v) => sum + (v - mean) ** 2, 0);
  const sd = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
  return {
    n,
    mean: round6(mean),
    sd: round6(sd),
    min: sorted[0]!,
    p50: nearestRank(sorted, 50),
    p90: nearestRank(sorted, 90),
    p95: nearestRank(sorted, 95),
    p99: nearestRank(sorted, 99),
    max: sorted[n - 1]!,
  };
}

/**
 * The nearest-rank percentile of ascending `sorted`: the value at rank ceil(p/100 * n), 1-based. p * n is
 * divided last, so the quotient of two integers is exact (0.9 * 10 would be 9.000000000000002, rank 10).
 */
export function nearestRank(sorted: readonly number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p * sorted.length) / 100));
  return sorted[rank - 1]!;
}

function round6(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
