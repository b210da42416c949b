import { toIso } from '../kernel/clock.js';
import { invariant } from '../kernel/errors.js';
import { actorById } from '../platform/identity/actors.js';
import type { Platform } from '../platform/platform.js';
import type { Activity, Game, Notification, Post, Reply } from '../platform/state.js';
import type * as F from './contract/feed.js';
import type * as Q from './contract/search.js';
import type { SocialViews } from './social-views.js';

/**
 * Wire views of the feed, notifications, activity and search (WIRE §9-§11), built on the social views.
 * The post views that add a field to `SocialViews.post` repeat its fields as one flat literal (no spreads:
 * see `SocialViews.post`); their contract types make the compiler catch one that falls out of step.
 */
/** GET /api/feed/posts/{id}: the post and every reply of it (all depths, oldest first). */
export function postDetailView(
  post: Post,
  replies: readonly Reply[],
  views: SocialViews,
): { post: F.PostDetail } {
  const detail: F.PostDetail = {
    id: post.id,
    post_id: post.id,
    content: post.content,
    post_type: post.postType,
    author: views.postAuthor(post),
    chess_game_id: post.chessGameId,
    tournament_id: post.tournamentId,
    repost_of_post_id: post.repostOfPostId,
    likes_count: post.likesCount,
    like_count: post.likesCount,
    replies_count: post.repliesCount,
    reply_count: post.repliesCount,
    has_liked: views.hasLiked(post.id),
    created_at: views.postCreatedAt(post),
    replies: replies.map((reply) => views.reply(reply)),
  };
  return { post: detail };
}

/** WIRE §9 (EX): a notification's post carries `game_preview` when it names a game. */
export function notifiedPostView(p: Platform, post: Post, views: SocialViews): F.NotifiedPost {
  const game = post.chessGameId === null ? undefined : p.state.games.get(post.chessGameId);
  if (!game) return views.post(post);
  return {
    id: post.id,
    post_id: post.id,
    content: post.content,
    post_type: post.postType,
    author: views.postAuthor(post),
    chess_game_id: post.chessGameId,
    tournament_id: post.tournamentId,
    repost_of_post_id: post.repostOfPostId,
    likes_count: post.likesCount,
    like_count: post.likesCount,
    replies_count: post.repliesCount,
    reply_count: post.repliesCount,
    has_liked: views.hasLiked(post.id),
    created_at: views.postCreatedAt(post),
    game_preview: gamePreview(game),
  };
}

function gamePreview(game: Game): F.GamePreview {
  return { move_count: game.plies, result: game.end?.result ?? null, status: game.status };
}

/** A notification about a post: a mention in it, or a post about one of the caller's games. */
export function postNoteView(p: Platform, note: Notification, views: SocialViews): F.PostNote {
  return {
    post_id: note.postId,
    post: notifiedPostView(p, p.state.posts.get(note.postId)!, views),
    created_at: toIso(note.atMs),
  };
}

/** A notification a reply carries: it names the reply and the root post the reply belongs to. */
export function replyNoteView(p: Platform, note: Notification, views: SocialViews): F.ReplyNote {
  invariant(note.replyId !== null, `notification ${note.type} #${note.seq} names no reply`);
  const reply = p.state.replies.get(note.replyId)!;
  return {
    post_id: reply.postId,
    reply_id: reply.id,
    reply: views.reply(reply),
    post: notifiedPostView(p, p.state.posts.get(reply.postId)!, views),
    created_at: toIso(note.atMs),
  };
}

/** A mention is in a post or in a reply; one in a reply names that reply, so a client answers it there. */
export function mentionNoteView(
  p: Platform,
  note: Notification,
  views: SocialViews,
): F.PostNote | F.ReplyMentionNote {
  return note.replyId === null ? postNoteView(p, note, views) : replyMentionNoteView(p, note, views);
}

/**
 * A mention inside a reply. Its `post` is the mentioning reply, not the root post: the official social worker
 * answers `post_id` naming `post.author`, and with the root post there it answered the root's author (itself,
 * when the reply was on its own post) about words it never wrote.
 */
function replyMentionNoteView(p: Platform, note: Notification, views: SocialViews): F.ReplyMentionNote {
  invariant(note.replyId !== null, `notification ${note.type} #${note.seq} names no reply`);
  const reply = p.state.replies.get(note.replyId)!;
  const root = p.state.posts.get(reply.postId)!;
  return {
    post_id: root.id,
    reply_id: reply.id,
    reply: views.reply(reply),
    post: mentionInReplyView(p, reply, root, views),
    created_at: toIso(note.atMs),
  };
}

/** The mentioning reply in the post shape: its own author, text, counts and time; the thread's type and game. */
function mentionInReplyView(p: Platform, reply: Reply, root: Post, views: SocialViews): F.MentionInReply {
  const game = root.chessGameId === null ? undefined : p.state.games.get(root.chessGameId);
  const view: F.MentionInReply = {
    id: reply.id,
    post_id: root.id,
    content: reply.content,
    post_type: root.postType,
    author: views.replyAuthor(reply),
    chess_game_id: root.chessGameId,
    tournament_id: root.tournamentId,
    repost_of_post_id: root.repostOfPostId,
    likes_count: reply.likesCount,
    like_count: reply.likesCount,
    replies_count: reply.repliesCount,
    reply_count: reply.repliesCount,
    has_liked: views.hasLiked(reply.id),
    created_at: views.replyCreatedAt(reply),
  };
  if (game) view.game_preview = gamePreview(game);
  return view;
}

export function activityView(p: Platform, actorId: string, row: Activity): F.ActivityRow {
  const actor = actorById(p, actorId)!;
  return {
    id: row.id,
    type: row.type,
    content: row.content,
    agent: { id: actor.id, handle: actor.handle },
    related_post_id: row.relatedPostId,
    related_agent_id: row.relatedAgentId,
    related_token_id: null,
    metadata: { ...row.metadata }, // a copy: a client must never hold the platform's own record
    created_at: toIso(row.atMs),
  };
}

/** Search results name their post (and the searched-under reply) by id and content only (WIRE §10). */
export function textRef(item: Post | Reply): Q.TextRef {
  return { id: item.id, content: item.content };
}
