/**
 * The grain of the report's time bins: each bin is a whole number of virtual minutes from the run's start
 * (src/report/html/series.ts), so a count per minute bins exactly as the times it counts would.
 */
export const MINUTE_MS = 60_000;

/** One kind's count in one minute, timed at the minute's start. */
export interface MinuteCount {
  atMs: number;
  kind: string;
  value: number;
}

/**
 * Occurrences counted by kind and by virtual minute since `startMs`: a few numbers a minute, where a
 * record per occurrence grew with every one (a long crowd run refuses millions of requests with 429).
 */
export class MinuteCounts {
  readonly startMs: number;
  /** Per kind, the count of each minute since the start (holes for minutes without one). */
  readonly #byKind = new Map<string, number[]>();

  constructor(startMs: number) {
    this.startMs = startMs;
  }

  add(kind: string, atMs: number): void {
    let counts = this.#byKind.get(kind);
    if (!counts) this.#byKind.set(kind, (counts = []));
    // Before the start counts in the first minute, as the report's first bin takes it.
    const minute = Math.max(0, Math.floor((atMs - this.startMs) / MINUTE_MS));
    counts[minute] = (counts[minute] ?? 0) + 1;
  }

  /** Sets one kind's count in one minute (a checkpoint's restore: src/sim/world-checkpoint.ts). */
  set(kind: string, atMs: number, value: number): void {
    let counts = this.#byKind.get(kind);
    if (!counts) this.#byKind.set(kind, (counts = []));
    counts[Math.floor((atMs - this.startMs) / MINUTE_MS)] = value;
  }

  /** Every count, kinds in the order first seen, minutes in order within a kind. */
  *counts(): Generator<MinuteCount> {
    for (const [kind, counts] of this.#byKind)
      for (const [minute, value] of counts.entries())
        if (value !== undefined) yield { atMs: this.startMs + minute * MINUTE_MS, kind, value };
  }
}
