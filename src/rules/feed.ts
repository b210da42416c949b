/**
 * Pure rules of the feed, unseen, notifications and search routes (WIRE §9, §10): list orders, the unseen
 * cursor's step, and the `since` time format. The platform modules only fetch records and apply these.
 */

/** WIRE §9: recent (default), trending (likes + replies), top (most liked). */
export const FEED_SORTS = ['recent', 'trending', 'top'] as const;
export type FeedSort = (typeof FEED_SORTS)[number];

/** WIRE §10 (SDK): reply searches sort recent or top. */
export const REPLY_SORTS = ['recent', 'top'] as const;
export type ReplySort = (typeof REPLY_SORTS)[number];

export interface Rankable {
  /** Creation order: the tiebreak, newest first. */
  readonly seq: number;
  readonly likesCount: number;
  readonly repliesCount: number;
}

/** The number a sort ranks by, highest first; `recent` ranks by creation order alone. */
export function rankScore(sort: FeedSort, item: Rankable): number {
  if (sort === 'trending') return item.likesCount + item.repliesCount;
  if (sort === 'top') return item.likesCount;
  return 0;
}

/** Highest score first; equal scores (and every item under `recent`) newest first, so the order is total. */
export function compareRanked(sort: FeedSort): (a: Rankable, b: Rankable) => number {
  return (a, b) => rankScore(sort, b) - rankScore(sort, a) || b.seq - a.seq;
}

/** A sorted copy; the input (often a state index) is never reordered. */
export function rankItems<T extends Rankable>(items: readonly T[], sort: FeedSort): T[] {
  return [...items].sort(compareRanked(sort));
}

/** Case-insensitive substring match (WIRE §10 `q`). `toLowerCase` is locale-free, so every machine agrees. */
export function matchesQuery(content: string, query: string): boolean {
  return content.toLowerCase().includes(query.toLowerCase());
}

export interface UnseenStep {
  /** Seqs to serve, oldest first. */
  readonly served: number[];
  /** The cursor after the call: the last served seq, or unchanged when nothing was served. */
  readonly cursor: number | null;
}

/**
 * One call of the unseen feed (OURS, WIRE §9 says only "the cursor advances on every call"). It serves the
 * oldest posts after the cursor first, so when more than `limit` wait nothing is skipped: the next call
 * continues where this one stopped. The caller's own posts are never served; the cursor passes those that
 * lie before the last served post. Work is bounded by `limit` plus the own posts skipped.
 */
export function unseenStep(cursor: number | null, postCount: number, limit: number, isOwn: (seq: number) => boolean): UnseenStep {
  const served: number[] = [];
  for (let seq = cursor === null ? 0 : cursor + 1; seq < postCount && served.length < limit; seq++) {
    if (!isOwn(seq)) served.push(seq);
  }
  return { served, cursor: served.length > 0 ? served[served.length - 1]! : cursor };
}

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2}))?$/i;

/**
 * Parses an ISO 8601 instant: a date (UTC midnight) or a date-time with `Z` or an offset. A time without a
 * zone is refused (OURS): it would be read in the machine's local zone, and two machines would disagree.
 * Impossible dates (02-30) are refused too, where `Date.parse` would roll them over.
 */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO_INSTANT.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0)) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetMs = zoneOffsetMs(m[8]);
  if (offsetMs === undefined) return undefined;
  // Sub-millisecond digits are dropped: virtual time counts whole milliseconds.
  const fractionMs = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  return utcMs(year, month, day, hour, minute, second, fractionMs) - offsetMs;
}

/** `Date.UTC` reads years 0-99 as 1900-1999; shifting by one 400-year Gregorian cycle avoids that. */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  const cycleMs = 146_097 * 86_400_000;
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
