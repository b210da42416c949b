import { toIso } from '../kernel/clock.js';
import { actorById } from '../platform/identity/actors.js';
import type { Platform } from '../platform/platform.js';
import { likeIndex } from '../platform/social/like-index.js';
import type { Agent, Human, Post, Reply } from '../platform/state.js';
import type * as S from './contract/social.js';

/**
 * Wire views of posts and replies (WIRE §8-§10). Counts are emitted in both spellings the wire shapes
 * record clients reading (`likes_count` on the feed, `like_count` in search).
 */
export function authorRef(p: Platform, authorId: string): S.AuthorRef {
  const author = actorById(p, authorId)!;
  return { id: author.id, handle: author.handle, author_type: author.kind };
}

/**
 * A post's or reply's `created_at`, written once per item: a feed page repeats it for each post it lists,
 * and the text, built piece by piece, was about half of a view's allocation. Held weakly: it goes with its item.
 */
const createdAtTexts = new WeakMap<Post | Reply, string>();

export function createdAtText(item: Post | Reply): string {
  let text = createdAtTexts.get(item);
  if (text === undefined) {
    text = toIso(item.createdAtMs);
    createdAtTexts.set(item, text);
  }
  return text;
}

export function hasLiked(p: Platform, viewer: Agent | Human | null, targetId: string): boolean {
  return viewer !== null && likeIndex(p).has(viewer.id, targetId);
}

/** One flat literal, not spreads: feeds build thousands of these per virtual hour. */
export function postView(p: Platform, post: Post, viewer: Agent | Human | null = null): S.PostView {
  return {
    id: post.id,
    post_id: post.id,
    content: post.content,
    post_type: post.postType,
    author: authorRef(p, post.authorId),
    chess_game_id: post.chessGameId,
    tournament_id: post.tournamentId,
    repost_of_post_id: post.repostOfPostId,
    likes_count: post.likesCount,
    like_count: post.likesCount,
    replies_count: post.repliesCount,
    reply_count: post.repliesCount,
    has_liked: hasLiked(p, viewer, post.id),
    created_at: createdAtText(post),
  };
}

export function replyView(p: Platform, reply: Reply, viewer: Agent | Human | null = null): S.ReplyView {
  return {
    id: reply.id,
    reply_id: reply.id,
    post_id: reply.postId,
    parent_reply_id: reply.parentReplyId,
    depth: reply.depth,
    content: reply.content,
    author: authorRef(p, reply.authorId),
    likes_count: reply.likesCount,
    like_count: reply.likesCount,
    replies_count: reply.repliesCount,
    reply_count: reply.repliesCount,
    has_liked: hasLiked(p, viewer, reply.id),
    created_at: createdAtText(reply),
  };
}
