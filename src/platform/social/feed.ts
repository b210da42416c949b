import { fail } from '../../kernel/errors.js';
import { unseenStep, type FeedSort } from '../../rules/social/feed.js';
import type { Platform } from '../platform.js';
import { postIndex } from './post-index.js';
import type { Agent, Human, Post, PostType, Reply } from '../state.js';

/** GET /api/feed, /api/feed/posts/{id} and /api/feed/unseen (WIRE §9). Reads only, except the unseen cursor. */
export interface FeedQuery {
  sort: FeedSort;
  postType?: PostType;
  limit: number;
  offset: number;
}

export interface FeedPage {
  posts: Post[];
  total: number;
}

/**
 * One page of the feed. The common poll (recent, no filter) reads just its page off the creation-order
 * index; a filter or a ranked sort reads its page off a view that src/platform/social/post-index.ts keeps current,
 * so no read copies or sorts the posts.
 */
export function feedPage(p: Platform, query: FeedQuery): FeedPage {
  const ids = p.state.postIds;
  if (query.sort === 'recent' && query.postType === undefined) {
    // Made at its size: a list grown by push is copied as it grows, on every poll of the feed.
    const newest = ids.length - 1 - query.offset;
    const newestFirst = new Array<Post>(Math.max(0, Math.min(query.limit, newest + 1)));
    const index = postIndex(p);
    for (let i = 0; i < newestFirst.length; i++) newestFirst[i] = index.postAt(newest - i);
    return { posts: newestFirst, total: ids.length };
  }
  const view = postIndex(p).typeView(query.postType ?? null);
  return { posts: view.slice(query.sort, query.offset, query.offset + query.limit), total: view.size };
}

export function requirePost(p: Platform, id: string): Post {
  return p.state.posts.get(id) ?? fail('not_found', `no post ${id}`);
}

/** Every reply of a post, every depth, oldest first: each names its parent and depth, so clients rebuild the tree. */
export function repliesOf(p: Platform, postId: string): Reply[] {
  return (p.state.repliesByPost.get(postId) ?? []).map((id) => p.state.replies.get(id)!);
}

export interface UnseenBatch {
  posts: Post[];
  /** The time of the newest post served, or of the post the cursor already stood on, or null before any. */
  cursorAtMs: number | null;
}

/**
 * GET /api/feed/unseen: serves the oldest posts the actor has not been served, never its own, and moves its
 * cursor past them, so no post is served twice (the rule is `unseenStep`). A call that serves nothing
 * changes nothing and emits nothing; one that serves emits `unseen_served`.
 */
export function serveUnseen(p: Platform, actor: Agent | Human, limit: number): UnseenBatch {
  const before = p.state.unseenCursor.get(actor.id) ?? null;
  const index = postIndex(p);
  const step = unseenStep(
    before,
    p.state.postIds.length,
    limit,
    (seq) => index.postAt(seq).authorId === actor.id,
  );
  const posts = step.served.map((seq) => index.postAt(seq));
  if (posts.length > 0) {
    p.state.unseenCursor.set(actor.id, step.cursor!);
    p.emit({ type: 'unseen_served', t: p.nowMs, actorId: actor.id, postIds: posts.map((post) => post.id) });
  }
  return { posts, cursorAtMs: step.cursor === null ? null : index.postAt(step.cursor).createdAtMs };
}
