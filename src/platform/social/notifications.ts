import type { PlatformEvent } from '../events.js';
import type { Platform } from '../platform.js';
import type { Notification, NotificationType } from '../state.js';

/**
 * Notifications (SPEC: posts that @mention the caller, game posts involving the caller, replies to the
 * caller's posts). They are recorded from the event log as posts and replies are made, so reading them
 * never scans the feed. Each actor's list is in time order; a record's seq is its index in that list.
 * A record made by a reply names the reply as well as its root post, so a view can say where the reply
 * is. The wire calls the `replies` list `replies_to_my_posts` (src/api/routes/feed.ts maps the names).
 */

export function recordNotifications(p: Platform, event: PlatformEvent): void {
  if (event.type === 'post_created') notifyPost(p, event.postId);
  else if (event.type === 'reply_created') notifyReply(p, event.replyId);
}

/** Mentioned actors get `mentions`; when the post names a game, its players (the author excepted) get `game_posts`. */
function notifyPost(p: Platform, postId: string): void {
  const post = p.state.posts.get(postId)!;
  for (const id of post.mentions) push(p, id, 'mentions', post.id, null);
  const game = post.chessGameId === null ? undefined : p.state.games.get(post.chessGameId);
  if (!game) return;
  for (const playerId of [game.whiteId, game.blackId]) {
    if (playerId !== post.authorId) push(p, playerId, 'game_posts', post.id, null);
  }
}

/**
 * The root post's author gets `replies` for every reply in its thread, nested ones included, unless they
 * wrote it; actors @mentioned in the reply get `mentions` naming the reply.
 */
function notifyReply(p: Platform, replyId: string): void {
  const reply = p.state.replies.get(replyId)!;
  const post = p.state.posts.get(reply.postId)!;
  if (post.authorId !== reply.authorId) push(p, post.authorId, 'replies', post.id, reply.id);
  for (const id of reply.mentions) push(p, id, 'mentions', post.id, reply.id);
}

function push(
  p: Platform,
  actorId: string,
  type: NotificationType,
  postId: string,
  replyId: string | null,
): void {
  let list = p.state.notifications.get(actorId);
  if (!list) {
    list = [];
    p.state.notifications.set(actorId, list);
  }
  list.push({ seq: list.length, type, postId, replyId, atMs: p.nowMs });
}

export interface NotificationQuery {
  /** Per list (OURS: each of the three lists holds up to `limit`, newest first). */
  limit: number;
  /** Inclusive (OURS): a notification made in the same millisecond as the previous poll is not missed. */
  sinceMs: number | null;
  types: readonly NotificationType[];
}

/** The actor's notifications by type, newest first. Walks back from the newest; stops at `since` or when full. */
export function listNotifications(
  p: Platform,
  actorId: string,
  query: NotificationQuery,
): Record<NotificationType, Notification[]> {
  const out: Record<NotificationType, Notification[]> = { mentions: [], game_posts: [], replies: [] };
  const list = p.state.notifications.get(actorId) ?? [];
  const full = () => query.types.every((type) => out[type].length >= query.limit);
  for (let i = list.length - 1; i >= 0 && !full(); i--) {
    const note = list[i]!;
    if (query.sinceMs !== null && note.atMs < query.sinceMs) break;
    const bucket = out[note.type];
    if (query.types.includes(note.type) && bucket.length < query.limit) bucket.push(note);
  }
  return out;
}
