import { fail } from '../kernel/errors.js';
import { matchesQuery, rankItems, type FeedSort, type ReplySort } from '../rules/feed.js';
import { repliesOf, requirePost } from './feed.js';
import type { Platform } from './platform.js';
import type { Post, PostType, Reply } from './state.js';

/**
 * GET /api/search/posts, /replies and /replies/thread (SPEC, WIRE §10). Every match, ranked; the route
 * pages it. `q` is a case-insensitive substring of the content.
 */
export function searchPosts(p: Platform, q: string, sort: FeedSort, postType?: PostType): Post[] {
  const matching = p.state.postIds
    .map((id) => p.state.posts.get(id)!)
    .filter((post) => (postType === undefined || post.postType === postType) && matchesQuery(post.content, q));
  return rankItems(matching, sort);
}

/** SPEC: direct replies within one post only (depth 1). Only that post's replies are read. */
export function searchDirectReplies(p: Platform, q: string, postId: string, sort: ReplySort): { post: Post; replies: Reply[] } {
  const post = requirePost(p, postId);
  const direct = repliesOf(p, post.id).filter((reply) => reply.parentReplyId === null && matchesQuery(reply.content, q));
  return { post, replies: rankItems(direct, sort) };
}

/**
 * SPEC: nested replies under a parent reply: its whole subtree at any depth, the parent itself excluded.
 * One pass over the post's replies in creation order finds the subtree, since a child is always made
 * after its parent.
 */
export function searchThread(p: Platform, q: string, parentReplyId: string, sort: ReplySort): { parent: Reply; post: Post; replies: Reply[] } {
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
