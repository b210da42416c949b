import { toIso } from '../kernel/clock.js';
import { actorById } from '../platform/actors.js';
import type { Platform } from '../platform/platform.js';
import type { Activity, Agent, Human, Notification, Post, Reply } from '../platform/state.js';
import { postView, replyView } from './social-views.js';

/** Wire views of the feed, notifications, activity and search (WIRE §9-§11), built on the social views. */
type Viewer = Agent | Human | null;

/** GET /api/feed/posts/{id}: the post and every reply of it (all depths, oldest first). */
export function postDetailView(p: Platform, post: Post, replies: readonly Reply[], viewer: Viewer) {
  return { post: { ...postView(p, post, viewer), replies: replies.map((reply) => replyView(p, reply, viewer)) } };
}

/** WIRE §9 (EX): a notification's post carries `game_preview` when it names a game. */
export function notifiedPostView(p: Platform, post: Post, viewer: Viewer) {
  const game = post.chessGameId === null ? undefined : p.state.games.get(post.chessGameId);
  const preview = game ? { game_preview: { move_count: game.moves.length, result: game.end?.result ?? null, status: game.status } } : {};
  return { ...postView(p, post, viewer), ...preview };
}

export function notificationView(p: Platform, note: Notification, viewer: Viewer) {
  const post = notifiedPostView(p, p.state.posts.get(note.postId)!, viewer);
  const reply = note.replyId === null ? null : replyView(p, p.state.replies.get(note.replyId)!, viewer);
  const replyFields = reply === null ? {} : { reply_id: reply.id, reply };
  return { post_id: note.postId, ...replyFields, post, created_at: toIso(note.atMs) };
}

export function activityView(p: Platform, actorId: string, row: Activity) {
  const actor = actorById(p, actorId)!;
  return {
    ...{ id: row.id, type: row.type, content: row.content, agent: { id: actor.id, handle: actor.handle } },
    ...{ related_post_id: row.relatedPostId, related_agent_id: row.relatedAgentId, related_token_id: null },
    ...{ metadata: { ...row.metadata }, created_at: toIso(row.atMs) },
  };
}

/** Search results name their post (and the searched-under reply) by id and content only (WIRE §10). */
export const textRef = (item: Post | Reply) => ({ id: item.id, content: item.content });
