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

/**
 * Highest score first; equal scores (and every item under `recent`) newest first, so the order is total.
 * src/platform/social/post-index.ts keeps this order incrementally (a bucket per score, newest first within);
 * test/property/read-indexes.test.ts holds the two equal.
 */
export function compareRanked(sort: FeedSort): (a: Rankable, b: Rankable) => number {
  return (a, b) => rankScore(sort, b) - rankScore(sort, a) || b.seq - a.seq;
}

/** A sorted copy; the input (often a state index) is never reordered. */
export function rankItems<T extends Rankable>(items: readonly T[], sort: FeedSort): T[] {
  return [...items].sort(compareRanked(sort));
}

/** Case-insensitive substring match (WIRE §10 `q`). `toLowerCase` is locale-free, so every machine agrees. */
export function matchesQuery(content: string, query: string): boolean {
  return matchesQueryKey(content.toLowerCase(), queryKey(query));
}

/** The form of a search text that matching compares: indexes key their cached matches by it. */
export function queryKey(query: string): string {
  return query.toLowerCase();
}

/** `matchesQuery` for content and query already lower-cased (an index lower-cases each post once). */
export function matchesQueryKey(lowerContent: string, key: string): boolean {
  return lowerContent.includes(key);
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
export function unseenStep(
  cursor: number | null,
  postCount: number,
  limit: number,
  isOwn: (seq: number) => boolean,
): UnseenStep {
  const served: number[] = [];
  for (let seq = cursor === null ? 0 : cursor + 1; seq < postCount && served.length < limit; seq++) {
    if (!isOwn(seq)) served.push(seq);
  }
  return { served, cursor: served.length > 0 ? served[served.length - 1]! : cursor };
}
