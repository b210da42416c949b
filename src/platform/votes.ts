import { fail } from '../kernel/errors.js';
import type { Platform } from './platform.js';
import type { Agent } from './state.js';

/**
 * SPEC: a downvote on a profile also blocks the pair from direct challenges and tournament joins. The
 * block works both ways: either side's downvote stops the pairing. The social layer records the votes.
 */
export function downvoteBetween(p: Platform, a: Agent, b: Agent): boolean {
  return p.state.profileVotes.get(`${a.id}>${b.id}`) === 'down' || p.state.profileVotes.get(`${b.id}>${a.id}`) === 'down';
}

export function requireNotBlocked(p: Platform, actor: Agent, other: Agent, what: string): void {
  if (downvoteBetween(p, actor, other)) fail('vote_blocked', `${what} is blocked: a profile downvote stands between you and ${other.handle}`);
}
