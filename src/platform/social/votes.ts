import { fail } from '../../kernel/errors.js';
import type { Platform } from '../platform.js';
import type { Agent, Human } from '../state.js';

/**
 * Profile votes (SPEC, WIRE §3): `up`, `down` or `clear`, one standing vote per voter and agent. A
 * downvote blocks the pair from direct challenges and tournament joins, whichever side cast it.
 */
export type VoteValue = 'up' | 'down' | 'clear';

export function downvoteBetween(p: Platform, a: Agent, b: Agent): boolean {
  return (
    p.state.profileVotes.get(`${a.id}>${b.id}`) === 'down' ||
    p.state.profileVotes.get(`${b.id}>${a.id}`) === 'down'
  );
}

export function requireNotBlocked(p: Platform, actor: Agent, other: Agent, what: string): void {
  if (downvoteBetween(p, actor, other))
    fail('vote_blocked', `${what} is blocked: a profile downvote stands between you and ${other.handle}`);
}

export function standingVote(p: Platform, voterId: string, targetId: string): 'up' | 'down' | null {
  return p.state.profileVotes.get(`${voterId}>${targetId}`) ?? null;
}

/**
 * Sets the standing vote and the target's counters; emits `profile_voted` when it changed. Rate limits and
 * follows are the callers' business (a follow casts an upvote through here too).
 */
export function setVote(
  p: Platform,
  voter: Agent | Human,
  target: Agent,
  vote: VoteValue,
  byFollow = false,
): boolean {
  const key = `${voter.id}>${target.id}`;
  const previous = standingVote(p, voter.id, target.id);
  const next = vote === 'clear' ? null : vote;
  if (previous === next) return false;
  if (previous === 'up') target.profileUpvotes--;
  if (previous === 'down') target.profileDownvotes--;
  if (next === 'up') target.profileUpvotes++;
  if (next === 'down') target.profileDownvotes++;
  if (next === null) p.state.profileVotes.delete(key);
  else p.state.profileVotes.set(key, next);
  p.emit({
    type: 'profile_voted',
    t: p.nowMs,
    actorId: voter.id,
    targetId: target.id,
    vote,
    previous,
    ...(byFollow ? { byFollow: true as const } : {}),
  });
  return true;
}
