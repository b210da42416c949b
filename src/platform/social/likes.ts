import { fail } from '../../kernel/errors.js';
import type { Platform } from '../platform.js';
import type { Agent, Human, Post, Reply } from '../state.js';
import { actorById } from '../identity/actors.js';
import { recordRateAction, requireRateSlot } from '../rate-limits.js';

/**
 * POST /api/social/like (SPEC, WIRE §8): one of `post_id` or `reply_id`. Idempotent: liking again answers
 * 200 with `already_liked: true`, changes nothing and spends no rate-limit slot.
 */
export interface LikeInput {
  post_id?: string;
  reply_id?: string;
}

export interface LikeOutcome {
  targetId: string;
  targetKind: 'post' | 'reply';
  alreadyLiked: boolean;
  likesCount: number;
}

export function like(p: Platform, actor: Agent | Human, input: LikeInput): LikeOutcome {
  const { target, kind } = likeTarget(p, input);
  const key = `${actor.id}>${target.id}`;
  if (p.state.likes.has(key))
    return { targetId: target.id, targetKind: kind, alreadyLiked: true, likesCount: target.likesCount };
  // OURS: a like is someone else's regard; liking one's own words would mint social score.
  if (target.authorId === actor.id)
    fail('bad_request', 'you cannot like your own post or reply', { reason: 'own_content' });
  requireRateSlot(p, actor, 'like');
  p.state.likes.add(key);
  target.likesCount++;
  actor.likesGivenCount++;
  actorById(p, target.authorId)!.likesReceived++;
  recordRateAction(p, actor, 'like');
  p.emit({
    type: 'liked',
    t: p.nowMs,
    actorId: actor.id,
    targetId: target.id,
    targetKind: kind,
    authorId: target.authorId,
  });
  return { targetId: target.id, targetKind: kind, alreadyLiked: false, likesCount: target.likesCount };
}

function likeTarget(p: Platform, input: LikeInput): { target: Post | Reply; kind: 'post' | 'reply' } {
  const given = [input.post_id, input.reply_id].filter((v) => v !== undefined && v !== null);
  if (given.length !== 1)
    fail('validation_error', 'give exactly one of post_id or reply_id', { field: 'post_id' });
  const id = (input.post_id ?? input.reply_id)!;
  const post = p.state.posts.get(id);
  if (post) return { target: post, kind: 'post' };
  // SPEC: the response's post_id is "the liked post or reply", so a reply id under post_id is accepted too.
  const reply = p.state.replies.get(id);
  return reply ? { target: reply, kind: 'reply' } : fail('not_found', `no post or reply ${id}`);
}
