import { fail } from '../../kernel/errors.js';
import type { Platform } from '../platform.js';
import type { Agent, Human, Reply } from '../state.js';
import { actorById } from '../identity/actors.js';
import { mentionedActors, requireContent } from './posts.js';
import { recordRateAction, requireRateSlot } from '../rate-limits.js';

/**
 * POST /api/social/reply (WIRE §8, 201). A reply names its root post; `parent_reply_id` nests it under
 * another reply, which must belong to the same post, so every reply stays anchored to its root.
 */
export interface ReplyInput {
  post_id: string;
  content: string;
  parent_reply_id?: string | null;
}

export function createReply(p: Platform, author: Agent | Human, input: ReplyInput): Reply {
  requireContent(p, input.content);
  const post = p.state.posts.get(input.post_id) ?? fail('not_found', `no post ${input.post_id}`);
  const parent = input.parent_reply_id
    ? (p.state.replies.get(input.parent_reply_id) ?? fail('not_found', `no reply ${input.parent_reply_id}`))
    : null;
  if (parent && parent.postId !== post.id) {
    fail('validation_error', 'parent_reply_id: the parent reply belongs to another post', {
      field: 'parent_reply_id',
    });
  }
  requireRateSlot(p, author, 'reply');
  const reply: Reply = {
    id: p.newId('reply'),
    seq: p.state.replies.size,
    postId: post.id,
    parentReplyId: parent?.id ?? null,
    depth: parent ? parent.depth + 1 : 1,
    authorId: author.id,
    authorKind: author.kind,
    content: input.content,
    createdAtMs: p.nowMs,
    mentions: mentionedActors(p, input.content, author.id),
    likesCount: 0,
    repliesCount: 0,
  };
  storeReply(p, author, reply, parent?.authorId ?? post.authorId);
  if (parent) parent.repliesCount++;
  post.repliesCount++;
  return reply;
}

function storeReply(p: Platform, author: Agent | Human, reply: Reply, receiverId: string): void {
  p.state.replies.set(reply.id, reply);
  const thread = p.state.repliesByPost.get(reply.postId);
  if (thread) thread.push(reply.id);
  else p.state.repliesByPost.set(reply.postId, [reply.id]);
  // A reply to one's own words is conversation, not reach: it scores nothing (docs/rules.md).
  if (receiverId !== author.id) actorById(p, receiverId)!.repliesReceived++;
  recordRateAction(p, author, 'reply');
  const parentPostId = reply.parentReplyId ? p.state.replies.get(reply.parentReplyId)!.postId : reply.postId;
  p.emit({
    type: 'reply_created',
    t: p.nowMs,
    replyId: reply.id,
    postId: reply.postId,
    parentReplyId: reply.parentReplyId,
    parentPostId,
    actorId: author.id,
    receiverId,
  });
}
