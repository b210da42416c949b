/**
 * Holm's step-down correction (Holm 1979) for a family of m tests: it keeps the chance of flagging any
 * true null at or below alpha whatever the tests' dependence, as Bonferroni does, and flags at least what
 * Bonferroni flags. A compare's metrics are strongly dependent (games, moves and endings move together),
 * which is why a correction valid under any dependence is used rather than Benjamini–Hochberg's, whose
 * false-discovery guarantee needs positive dependence and controls a weaker error rate.
 *
 * Sorted by p (ties by index, so the result depends on the inputs only), the k-th smallest p is tested at
 * alpha / (m - k + 1) and testing stops at the first that fails. The adjusted p of rank k is
 * min(1, max over j <= k of (m - j + 1) p_(j)): a test is flagged exactly when its adjusted p <= alpha.
 */
export interface HolmResult {
  /** Adjusted p per input index: never below the raw p, and ordered as the raw p's are. */
  adjusted: number[];
  /** Per input index: flagged by the step-down at family-wise `alpha`. */
  rejected: boolean[];
  /**
   * Per input index, the per-test level its interval is drawn at so that the interval leaves 0 out
   * exactly when the test is flagged: alpha / (m - k + 1) for a flagged test of rank k (tied p's take
   * the first rank of their tie), and for every other test the level of the step where it stopped.
   */
  level: number[];
}

export function holm(pValues: readonly number[], alpha: number): HolmResult {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must lie between 0 and 1, got ${alpha}`);
  for (const p of pValues)
    if (!(p >= 0 && p <= 1)) throw new RangeError(`a p-value must lie in [0, 1], got ${p}`);
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((i, j) => pValues[i]! - pValues[j]! || i - j);
  const adjusted = new Array<number>(m);
  const rejected = new Array<boolean>(m);
  const level = new Array<number>(m);
  let running = 0;
  let stopLevel: number | null = null;
  let tieLevel = 0; // tied p's share the level of the tie's first rank: the same data, the same interval
  order.forEach((index, k) => {
    running = Math.max(running, Math.min(1, (m - k) * pValues[index]!));
    adjusted[index] = running;
    rejected[index] = running <= alpha;
    if (!rejected[index] && stopLevel === null) stopLevel = alpha / (m - k);
    if (k === 0 || pValues[index] !== pValues[order[k - 1]!]) tieLevel = alpha / (m - k);
    level[index] = rejected[index] ? tieLevel : stopLevel!;
  });
  return { adjusted, rejected, level };
}
