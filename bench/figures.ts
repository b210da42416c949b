/**
 * Pure helpers for the bench figures: medians and latency summaries, the goal printed beside each figure,
 * byte units, the peak-RSS fields of /proc/<pid>/status, the progress lines of `run`, and the linear
 * projection P4 makes for a run too long to measure. No clock and no I/O here (test/unit/bench-figures.test.ts).
 */

/** The middle value (the upper middle of an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Nearest-rank percentile: the smallest value with at least p% of the values at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** p50, p99 and max of request durations (ms), with one sort. */
export function latencySummary(values: readonly number[]): LatencySummary {
  if (values.length === 0) return { count: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(1, Math.ceil((p / 100) * sorted.length)) - 1]!;
  return { count: sorted.length, p50: at(50), p99: at(99), max: sorted.at(-1)! };
}

/**
 * A goal beside a figure: `higher` figures are better (a ratio, a speed-up) or `lower` ones (bytes, ms).
 * `strict` goals exclude the bound itself (`< 250 MB`); the aim is optional.
 */
export interface Goal {
  better: 'higher' | 'lower';
  goal: number;
  aim?: number;
  strict?: boolean;
  /** How the bounds are written: `(n) => `${n} B``; plain numbers by default. */
  unit?: (n: number) => string;
}

/** `BELOW GOAL` also for a figure that must stay small (bytes, MB): it misses its goal. */
export type Verdict = 'meets aim' | 'meets goal' | 'BELOW GOAL' | 'no figure';

export function verdict(value: number, goal: Goal): Verdict {
  if (!Number.isFinite(value)) return 'no figure';
  const meets = (bound: number) =>
    goal.better === 'higher'
      ? goal.strict
        ? value > bound
        : value >= bound
      : goal.strict
        ? value < bound
        : value <= bound;
  if (!meets(goal.goal)) return 'BELOW GOAL';
  return goal.aim !== undefined && meets(goal.aim) ? 'meets aim' : 'meets goal';
}

/** `(goal >= 0.5, aim >= 0.7)`, `(goal < 250 MB)`: the bracket each figure line ends with. */
export function goalText(goal: Goal): string {
  const show = goal.unit ?? ((n: number) => String(n));
  const op = goal.better === 'higher' ? (goal.strict ? '>' : '>=') : goal.strict ? '<' : '<=';
  const aim = goal.aim === undefined ? '' : `, aim ${op} ${show(goal.aim)}`;
  return `(goal ${op} ${show(goal.goal)}${aim})`;
}

/** One figure line: `P2 smoke ...: 1370x (goal >= 5000x, aim >= 10000x) BELOW GOAL`. */
export function figureLine(label: string, shown: string, value: number, goal: Goal): string {
  return `${label}: ${shown} ${goalText(goal)} ${verdict(value, goal)}`;
}

export const MB = 1_000_000;
export const GIB = 1024 ** 3;

/** Bytes as MB (10^6), one decimal under 100. */
export function megabytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '? MB';
  const mb = bytes / MB;
  return `${mb < 100 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

export function gibibytes(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / GIB).toFixed(2)} GiB` : '? GiB';
}

/** A speed-up such as `1,370x` (virtual time over wall time). */
export function times(ratio: number): string {
  if (!Number.isFinite(ratio)) return '?x';
  return `${ratio < 10 ? ratio.toFixed(1) : Math.round(ratio).toLocaleString('en-US')}x`;
}

/**
 * A `kB` field of /proc/<pid>/status (`VmHWM:    123456 kB`, the peak resident set) in bytes, or undefined
 * when the field is missing (not Linux, or a kernel thread).
 */
export function statusFieldBytes(status: string, field: 'VmHWM' | 'VmRSS' | 'VmPeak'): number | undefined {
  const match = new RegExp(`^${field}:\\s*(\\d+)\\s*kB\\s*$`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : undefined;
}

/**
 * The fraction of virtual time in one of `run`'s progress lines on a pipe
 * (`smoke: 35% of 24 h virtual, 12.0 s elapsed, ...`), or undefined for any other line.
 */
export function progressFraction(line: string): number | undefined {
  const match = /^[^:\n]+: (\d+)% of [^,\n]+ virtual,/.exec(line);
  return match ? Number(match[1]) / 100 : undefined;
}

export interface ProbeSample {
  /** Fraction of the scenario's virtual time reached (from the progress line). */
  fraction: number;
  /** Heap used right after two full collections (the live heap). */
  heapAfterGc: number;
  rss: number;
}

/**
 * A linear projection of a figure to a longer virtual duration from two samples of a shorter run:
 * growth per virtual hour between the samples, carried from the last sample to `targetHours`.
 */
export function projectLinear(
  first: { hours: number; value: number },
  last: { hours: number; value: number },
  targetHours: number,
): { perHour: number; projected: number } {
  if (!(last.hours > first.hours)) throw new Error('projectLinear: the samples need distinct, ordered times');
  const perHour = (last.value - first.value) / (last.hours - first.hours);
  return { perHour, projected: last.value + perHour * (targetHours - last.hours) };
}
