import { matchesQueryKey, rankScore, type FeedSort } from '../../rules/social/feed.js';
import { derivedIndex, followingIndex } from '../derived-index.js';
import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import type { Post, PostType } from '../state.js';

/**
 * Ranked views of the posts, for the feed's filters and for search, so that a read costs its page rather
 * than a copy and a sort of every post. A view holds the posts one filter accepts (a post type, a search
 * text) in creation order, and, per ranked sort asked of it, the same posts in rank order.
 *
 * Posts are only ever added, and their content and type never change; only like and reply counts move a
 * post in a ranking. Likes and replies are noted in a change log from the event log; a view applies the
 * entries it has not seen when it is next read. Noting rather than applying at once keeps the views right
 * whatever the order of a count's change and its event (a reply's event precedes its count's change).
 */

export type RankedSort = Exclude<FeedSort, 'recent'>;

/**
 * One ranked order of a view's posts, in the rule's order (src/rules/social/feed.ts `compareRanked`: the highest
 * `rankScore` first, equal scores newest first), kept as one bucket of posts per score, each bucket oldest
 * first. A new post joins the end of the lowest bucket; a like or reply moves a post to a higher bucket,
 * where it lands after the older posts of that score, so a change shifts only newer posts of two buckets
 * (few, since recent posts are the ones liked and answered), never the whole order. A page walks the
 * buckets from the highest score, skipping whole buckets before its offset.
 */
class RankedOrder {
  readonly sort: RankedSort;
  /** Member posts by score as indexed, each bucket oldest first. */
  readonly #buckets = new Map<number, Post[]>();
  /** The scores that have a bucket, ascending. */
  readonly #scores: number[] = [];
  /** Each member's score as indexed, by post seq: where to find it when its counts change. */
  readonly #scoreBySeq = new Map<number, number>();

  constructor(sort: RankedSort, posts: readonly Post[]) {
    this.sort = sort;
    for (const post of posts) this.add(post);
  }

  add(post: Post): void {
    const score = rankScore(this.sort, post);
    this.#scoreBySeq.set(post.seq, score);
    insertBySeq(this.#bucket(score), post);
  }

  /** Moves a member whose score changed since it was indexed; ignores posts that are not members. */
  refresh(post: Post): void {
    const previous = this.#scoreBySeq.get(post.seq);
    if (previous === undefined || previous === rankScore(this.sort, post)) return;
    this.#take(previous, post);
    this.add(post);
  }

  /** The posts at page positions `start` (inclusive) to `end` (exclusive), clipped to the order. */
  slice(start: number, end: number): Post[] {
    const posts: Post[] = [];
    let skip = start;
    for (let i = this.#scores.length - 1; i >= 0 && posts.length < end - start; i--) {
      const bucket = this.#buckets.get(this.#scores[i]!)!;
      if (skip >= bucket.length) {
        skip -= bucket.length;
        continue;
      }
      for (let j = bucket.length - 1 - skip; j >= 0 && posts.length < end - start; j--)
        posts.push(bucket[j]!);
      skip = 0;
    }
    return posts;
  }

  #bucket(score: number): Post[] {
    let bucket = this.#buckets.get(score);
    if (bucket === undefined) {
      bucket = [];
      this.#buckets.set(score, bucket);
      this.#scores.splice(firstIndexAbove(this.#scores, score), 0, score);
    }
    return bucket;
  }

  #take(score: number, post: Post): void {
    const bucket = this.#buckets.get(score)!;
    bucket.splice(firstSeqAbove(bucket, post.seq) - 1, 1);
    if (bucket.length > 0) return;
    this.#buckets.delete(score);
    this.#scores.splice(firstIndexAbove(this.#scores, score) - 1, 1);
  }
}

/** Keeps `bucket` oldest first; a new post (the newest) is appended without a search. */
function insertBySeq(bucket: Post[], post: Post): void {
  if (bucket.length === 0 || bucket[bucket.length - 1]!.seq < post.seq) bucket.push(post);
  else bucket.splice(firstSeqAbove(bucket, post.seq), 0, post);
}

/** The first index of an oldest-first bucket whose post is newer than `seq`. */
function firstSeqAbove(bucket: readonly Post[], seq: number): number {
  let low = 0;
  let high = bucket.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (bucket[middle]!.seq > seq) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The first index of an ascending list whose value is above `value`. */
function firstIndexAbove(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! > value) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The posts one filter accepts, in creation order, with the rank orders asked of them so far. */
export class PostView {
  readonly #accepts: (post: Post) => boolean;
  /** Accepted posts, oldest first. */
  readonly #members: Post[] = [];
  /** The rank orders asked of this view so far (at most one per ranked sort), walked on every change. */
  readonly #orders: RankedOrder[] = [];
  /** Posts (by seq) already judged by the filter. */
  #scanned = 0;
  /** Position in the index's change log up to which this view is current. */
  cursor: number;

  constructor(accepts: (post: Post) => boolean, cursor: number) {
    this.#accepts = accepts;
    this.cursor = cursor;
  }

  get size(): number {
    return this.#members.length;
  }

  /** Page positions `start` to `end` (exclusive) under `sort`, clipped to the view, as `Array.slice` would. */
  slice(sort: FeedSort, start: number, end: number): Post[] {
    if (sort !== 'recent') return this.#ranked(sort).slice(start, end);
    const newest = this.#members.length - 1;
    const posts: Post[] = [];
    for (let position = start; position < Math.min(end, this.#members.length); position++)
      posts.push(this.#members[newest - position]!);
    return posts;
  }

  /** Judges the posts created since the last read (`posts` is every post, by seq); new members join every rank order. */
  admitNew(posts: readonly Post[]): void {
    for (; this.#scanned < posts.length; this.#scanned++) {
      const post = posts[this.#scanned]!;
      if (!this.#accepts(post)) continue;
      this.#members.push(post);
      for (const order of this.#orders) order.add(post);
    }
  }

  /** Posts whose counts changed (`changed` from `start` on): each rank order moves those it holds. */
  refresh(changed: readonly Post[], start: number): void {
    for (const order of this.#orders) for (let i = start; i < changed.length; i++) order.refresh(changed[i]!);
  }

  /** A rank order is built the first time it is asked for, from the members as they are then. */
  #ranked(sort: RankedSort): RankedOrder {
    for (const order of this.#orders) if (order.sort === sort) return order;
    const order = new RankedOrder(sort, this.#members);
    this.#orders.push(order);
    return order;
  }
}

export interface PostIndexLimits {
  /**
   * How many search texts keep a view of their own (least recently read dropped first): agents search a
   * few words again and again, and an unbounded cache would grow with every text a client invents.
   */
  readonly searchViewsKept: number;
  /** Change-log entries kept before it is trimmed; views that lag more than half of it are dropped and rebuilt on demand. */
  readonly changeLogLimit: number;
}

/** The limits of every platform's index; tests build one with small limits to exercise eviction and trimming. */
export const POST_INDEX_LIMITS: PostIndexLimits = { searchViewsKept: 64, changeLogLimit: 16_384 };

export class PostIndex {
  readonly #p: Platform;
  readonly #limits: PostIndexLimits;
  /** Posts whose like or reply counts changed, in order; `#logStart` is the position of its first entry. */
  #changes: Post[] = [];
  #logStart = 0;
  readonly #typeViews = new Map<PostType | null, PostView>();
  readonly #searchViews = new Map<string, PostView>();
  /** Lower-cased content by post seq, filled in creation order as search views need it. */
  readonly #lowerContent: string[] = [];
  /**
   * Every post by seq, filled in creation order as reads need them: the feed, its views and its unseen
   * batches walk posts by position, and finding each by its id cost two lookups (its id, then the post).
   * Posts are only ever added, and never replaced.
   */
  readonly #bySeq: Post[] = [];

  constructor(p: Platform, limits: PostIndexLimits = POST_INDEX_LIMITS) {
    this.#p = p;
    this.#limits = limits;
  }

  /** The posts of one type (null: every post), current. */
  typeView(postType: PostType | null): PostView {
    let view = this.#typeViews.get(postType);
    if (view === undefined) {
      view = new PostView((post) => postType === null || post.postType === postType, this.#logEnd());
      this.#typeViews.set(postType, view);
    }
    return this.#current(view);
  }

  /** The posts that match a search text (its `queryKey`), of one type or any, current. */
  searchView(queryKey: string, postType: PostType | null): PostView {
    const key = `${postType ?? ''}|${queryKey}`;
    let view = this.#searchViews.get(key);
    if (view === undefined) {
      const accepts = (post: Post) =>
        (postType === null || post.postType === postType) &&
        matchesQueryKey(this.#lowerContentOf(post), queryKey);
      view = new PostView(accepts, this.#logEnd());
      if (this.#searchViews.size >= this.#limits.searchViewsKept)
        this.#searchViews.delete(this.#searchViews.keys().next().value!);
    } else {
      this.#searchViews.delete(key); // re-set below: the map's order is the recency order
    }
    this.#searchViews.set(key, view);
    return this.#current(view);
  }

  /** One event of the log, handed on by the platform's listener (see derived-index.ts). */
  follow(event: PlatformEvent): void {
    if (event.type === 'liked' && event.targetKind === 'post') this.#logChange(event.targetId);
    else if (event.type === 'reply_created') this.#logChange(event.postId);
  }

  #logChange(postId: string): void {
    this.#changes.push(this.#p.state.posts.get(postId)!);
    if (this.#changes.length >= this.#limits.changeLogLimit) this.#trimLog();
  }

  #logEnd(): number {
    return this.#logStart + this.#changes.length;
  }

  /** New posts first, then the count changes since the view's cursor (re-applying a change is harmless). */
  #current(view: PostView): PostView {
    view.admitNew(this.#everyPost());
    view.refresh(this.#changes, view.cursor - this.#logStart);
    view.cursor = this.#logEnd();
    return view;
  }

  /** The post of a creation-order position (its seq), which must exist. */
  postAt(seq: number): Post {
    const bySeq = this.#bySeq;
    return seq < bySeq.length ? bySeq[seq]! : this.#everyPost()[seq]!;
  }

  /** Every post by seq, caught up with the posts created since the last read. */
  #everyPost(): readonly Post[] {
    const bySeq = this.#bySeq;
    const { posts, postIds } = this.#p.state;
    while (bySeq.length < postIds.length) bySeq.push(posts.get(postIds[bySeq.length]!)!);
    return bySeq;
  }

  /** Drops the views that lag more than half the log behind (rebuilt when next read), then the entries every view has seen. */
  #trimLog(): void {
    const stale = this.#logEnd() - this.#limits.changeLogLimit / 2;
    dropViewsBefore(this.#typeViews, stale);
    dropViewsBefore(this.#searchViews, stale);
    let seenByAll = this.#logEnd();
    for (const view of this.#typeViews.values()) seenByAll = Math.min(seenByAll, view.cursor);
    for (const view of this.#searchViews.values()) seenByAll = Math.min(seenByAll, view.cursor);
    this.#changes = this.#changes.slice(seenByAll - this.#logStart);
    this.#logStart = seenByAll;
  }

  #lowerContentOf(post: Post): string {
    const lower = this.#lowerContent;
    while (lower.length <= post.seq) lower.push(this.postAt(lower.length).content.toLowerCase());
    return lower[post.seq]!;
  }
}

function dropViewsBefore<K>(views: Map<K, PostView>, cursor: number): void {
  for (const [key, view] of views) if (view.cursor < cursor) views.delete(key);
}

/** The kind createPlatform registers: built from the state on its first read, then following the event log. */
export const POST_INDEX = followingIndex('posts', PostIndex);

export function postIndex(p: Platform): PostIndex {
  return derivedIndex(p, POST_INDEX);
}
