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
  // Most answers write an instant written before: every request at one virtual instant reads it, and an
  // agent's every poll writes the deadlines of the same live games. Those are kept by their last bits.
  const slot = ms & (ISO_SLOTS - 1);
  if (ISO_MS[slot] === ms) return ISO_TEXT[slot]!;
  if (!(ms >= 0 && ms < YEAR_10000_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  // Date's text, written from the day's cached prefix: views write an instant for nearly every field.
  const day = Math.floor(ms / DAY_MS);
  const inDay = ms - day * DAY_MS;
  const hours = Math.floor(inDay / 3_600_000);
  const minutes = Math.floor(inDay / 60_000) % 60;
  const seconds = Math.floor(inDay / 1000) % 60;
  const text = `${dayPrefix(day)}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[inDay % 1000]}Z`;
  ISO_MS[slot] = ms;
  ISO_TEXT[slot] = text;
  return text;
}

/**
 * The instants toIso wrote last, each in the slot its low bits name (a later one in the same slot takes
 * it), and their texts. A smoke run writes some 2.5 million instants, most of them live games' deadlines
 * polled again and again: the one-entry cache this replaced missed whenever two alternated.
 */
const ISO_SLOTS = 1024;
const ISO_MS = new Float64Array(ISO_SLOTS).fill(Number.NaN);
const ISO_TEXT: string[] = new Array<string>(ISO_SLOTS).fill('');

const DAY_MS = 86_400_000;
/** Beyond year 9999 (and before 1970) Date writes the expanded form; leave those to it. */
const YEAR_10000_MS = 253_402_300_800_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const DAY_PREFIXES = new Map<number, string>();

/** `YYYY-MM-DDT` of a day since the epoch. */
function dayPrefix(day: number): string {
  let prefix = DAY_PREFIXES.get(day);
  if (prefix === undefined) {
    if (DAY_PREFIXES.size >= 4096) DAY_PREFIXES.clear(); // a bound for a server up for years, never reached by a run
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    DAY_PREFIXES.set(day, prefix);
  }
  return prefix;
}

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * Parses an ISO 8601 instant: a date (UTC midnight) or a date-time with `Z` or an offset. A time without a
 * zone is refused (OURS): it would be read in the machine's local zone, and two machines would disagree.
 * Impossible dates (02-30) are refused too, where `Date.parse` would roll them over.
 */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO_INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
    Number(v ?? 0),
  ) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMs = zoneOffsetMs(m[8]);
  if (offsetMs === undefined) return undefined;
  // Sub-millisecond digits are dropped: virtual time counts whole milliseconds.
  const fractionMs = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  return utcMs(year, month, day, hour, minute, second, fractionMs) - offsetMs;
}

/** `Date.UTC` reads years 0-99 as 1900-1999; shifting by one 400-year Gregorian cycle avoids that. */
function utcMs(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number {
  const cycleMs = 146_097 * DAY_MS;
  const shift = year < 100 ? 1 : 0;
  return Date.UTC(year + 400 * shift, month - 1, day, hour, minute, second, ms) - shift * cycleMs;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function zoneOffsetMs(zone: string | undefined): number | undefined {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const digits = zone.replace(':', '');
  const hours = Number(digits.slice(1, 3));
  const minutes = Number(digits.slice(3, 5));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
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
