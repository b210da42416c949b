import { fail } from '../../kernel/errors.js';
import type { Platform } from '../platform.js';
import type { Agent, Human } from '../state.js';
import { findAgent } from '../identity/identity.js';
import { findHuman } from '../identity/actors.js';
import { recordRateAction, requireRateSlot } from '../rate-limits.js';
import { setVote, standingVote, type VoteValue } from './votes.js';

/**
 * Follows (WIRE §8) and profile votes (WIRE §3). SPEC: following an agent is an active profile upvote;
 * unfollowing removes that upvote and applies no downvote. OURS: the link holds both ways, so nobody
 * follows an agent without upvoting it: a `down` or `clear` vote by a follower ends the follow too.
 * Follow and unfollow share the follows limit (both pages list it).
 */
export interface FollowTargetInput {
  target_agent_id?: string;
  target_handle?: string;
  target_user_id?: string;
  target_username?: string;
}

export function followTarget(p: Platform, input: FollowTargetInput): Agent | Human {
  const given = (['target_agent_id', 'target_handle', 'target_user_id', 'target_username'] as const).filter(
    (k) => input[k] != null,
  );
  if (given.length !== 1)
    fail(
      'validation_error',
      'give exactly one of target_agent_id, target_handle, target_user_id, target_username',
      { field: 'target_handle' },
    );
  const name = given[0]!;
  const value = input[name]!;
  const found =
    name === 'target_agent_id' || name === 'target_handle' ? findAgent(p, value) : findHuman(p, value);
  return found ?? fail('not_found', `no ${name.startsWith('target_user') ? 'human' : 'agent'} "${value}"`);
}

export function isFollowing(p: Platform, followerId: string, targetId: string): boolean {
  return p.state.follows.has(`${followerId}>${targetId}`);
}

/** POST /api/social/follow. Following again answers `already_following: true` and spends nothing. */
export function follow(
  p: Platform,
  follower: Agent | Human,
  target: Agent | Human,
): { alreadyFollowing: boolean } {
  if (follower.id === target.id) fail('bad_request', 'you cannot follow yourself', { reason: 'self_follow' });
  if (isFollowing(p, follower.id, target.id)) return { alreadyFollowing: true };
  requireRateSlot(p, follower, 'follow');
  p.state.follows.add(`${follower.id}>${target.id}`);
  follower.followingCount++;
  target.followersCount++;
  recordRateAction(p, follower, 'follow');
  p.emit({
    type: 'followed',
    t: p.nowMs,
    actorId: follower.id,
    targetId: target.id,
    targetKind: target.kind,
  });
  if (target.kind === 'agent') setVote(p, follower, target, 'up', true);
  return { alreadyFollowing: false };
}

/** DELETE /api/social/follow. Unfollowing someone not followed answers `unfollowed: false` and spends nothing. */
export function unfollow(
  p: Platform,
  follower: Agent | Human,
  target: Agent | Human,
): { unfollowed: boolean } {
  if (!isFollowing(p, follower.id, target.id)) return { unfollowed: false };
  requireRateSlot(p, follower, 'follow');
  endFollow(p, follower, target, false);
  recordRateAction(p, follower, 'follow');
  // The follow's upvote goes with it; no downvote is applied (SPEC).
  if (target.kind === 'agent' && standingVote(p, follower.id, target.id) === 'up')
    setVote(p, follower, target, 'clear', true);
  return { unfollowed: true };
}

function endFollow(p: Platform, follower: Agent | Human, target: Agent | Human, byVote: boolean): void {
  p.state.follows.delete(`${follower.id}>${target.id}`);
  follower.followingCount--;
  target.followersCount--;
  p.emit({
    type: 'unfollowed',
    t: p.nowMs,
    actorId: follower.id,
    targetId: target.id,
    targetKind: target.kind,
    ...(byVote ? { byVote: true as const } : {}),
  });
}

/** POST /api/agents/profile/vote. A vote equal to the standing one is answered, changes nothing and spends nothing. */
export function castVote(p: Platform, voter: Agent | Human, target: Agent, value: VoteValue): void {
  if (voter.id === target.id)
    fail('bad_request', 'you cannot vote on your own profile', { reason: 'self_vote' });
  if (standingVote(p, voter.id, target.id) === (value === 'clear' ? null : value)) return;
  requireRateSlot(p, voter, 'vote');
  if (value !== 'up' && isFollowing(p, voter.id, target.id)) endFollow(p, voter, target, true);
  setVote(p, voter, target, value);
  recordRateAction(p, voter, 'vote');
}
