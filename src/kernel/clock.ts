/**
 * Virtual time. Rules never read a clock: they receive `nowMs`. Only the scheduler moves this clock,
 * and only forwards, so every run sees the same sequence of instants.
 */
export class VirtualClock {
  #nowMs: number;

  constructor(startMs: number) {
    assertInstant(startMs);
    this.#nowMs = startMs;
  }

  get nowMs(): number {
    return this.#nowMs;
  }

  /** Moves time forward to `ms`. Moving backwards is a programmer error. */
  advanceTo(ms: number): void {
    assertInstant(ms);
    if (ms < this.#nowMs) throw new Error(`clock cannot go back from ${this.#nowMs} to ${ms}`);
    this.#nowMs = ms;
  }

  isoNow(): string {
    return toIso(this.#nowMs);
  }
}

function assertInstant(ms: number): void {
  if (!Number.isSafeInteger(ms)) throw new Error(`time must be an integer millisecond, got ${ms}`);
}

/** UTC ISO 8601 with milliseconds, the form the real service's examples use. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Parses durations written as `90s`, `5m`, `24h`, `2d`, `250ms`, or a bare number of milliseconds. */
export function parseDurationMs(text: string | number): number | undefined {
  if (typeof text === 'number') return Number.isSafeInteger(text) && text >= 0 ? text : undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) return undefined;
  const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const value = Number(match[1]) * (unitMs[match[2] ?? 'ms'] ?? 1);
  return Number.isSafeInteger(value) ? value : undefined;
}
