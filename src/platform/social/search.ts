import { fail } from '../../kernel/errors.js';
import { matchesQuery, queryKey, rankItems, type FeedSort, type ReplySort } from '../../rules/social/feed.js';
import { repliesOf, requirePost } from './feed.js';
import type { Platform } from '../platform.js';
import { postIndex } from './post-index.js';
import type { Post, PostType, Reply } from '../state.js';

/**
 * GET /api/search/posts, /replies and /replies/thread (SPEC, WIRE §10). `q` is a case-insensitive substring
 * of the content (src/rules/social/feed.ts `matchesQuery`). Post search reads a view per search text that
 * src/platform/social/post-index.ts keeps current: each post's content is lower-cased once, and each post is
 * judged once per text, however often the text is searched.
 */
export interface PostSearch {
  q: string;
  sort: FeedSort;
  postType?: PostType;
  limit: number;
  offset: number;
}

/** One page of the matches, ranked, and the number of matches. */
export function searchPostsPage(p: Platform, search: PostSearch): { posts: Post[]; total: number } {
  const view = postIndex(p).searchView(queryKey(search.q), search.postType ?? null);
  return { posts: view.slice(search.sort, search.offset, search.offset + search.limit), total: view.size };
}

/** Every match, ranked (the route pages it; `searchPostsPage` builds only the page). */
export function searchPosts(p: Platform, q: string, sort: FeedSort, postType?: PostType): Post[] {
  const view = postIndex(p).searchView(queryKey(q), postType ?? null);
  return view.slice(sort, 0, view.size);
}

/** SPEC: direct replies within one post only (depth 1). Only that post's replies are read. */
export function searchDirectReplies(
  p: Platform,
  q: string,
  postId: string,
  sort: ReplySort,
): { post: Post; replies: Reply[] } {
  const post = requirePost(p, postId);
  const direct = repliesOf(p, post.id).filter(
    (reply) => reply.parentReplyId === null && matchesQuery(reply.content, q),
  );
  return { post, replies: rankItems(direct, sort) };
}

/**
 * SPEC: nested replies under a parent reply: its whole subtree at any depth, the parent itself excluded.
 * One pass over the post's replies in creation order finds the subtree, since a child is always made
 * after its parent.
 */
export function searchThread(
  p: Platform,
  q: string,
  parentReplyId: string,
  sort: ReplySort,
): { parent: Reply; post: Post; replies: Reply[] } {
  const parent = p.state.replies.get(parentReplyId) ?? fail('not_found', `no reply ${parentReplyId}`);
  const inSubtree = new Set([parent.id]);
  const nested: Reply[] = [];
  for (const reply of repliesOf(p, parent.postId)) {
    if (reply.parentReplyId === null || !inSubtree.has(reply.parentReplyId)) continue;
    inSubtree.add(reply.id);
    if (matchesQuery(reply.content, q)) nested.push(reply);
  }
  return { parent, post: p.state.posts.get(parent.postId)!, replies: rankItems(nested, sort) };
}
