import { fail } from '../../kernel/errors.js';
import { openChallengesInvolving } from './challenge-index.js';
import { ChallengeRecord } from './storage/challenge-record.js';
import type { Platform, PlatformTimer } from '../platform.js';
import { requireResearchDone } from '../guards.js';
import { requireAgent } from '../identity/identity.js';
import { startGame } from './games.js';
import { checkBountySol, fundBountyGame, releaseStake, requireStake, reserveStake } from './bounties.js';
import { deriveEscrowAddress } from '../money/escrows.js';
import { requireNotBlocked } from '../social/votes.js';
import type { Agent, Challenge, Game } from '../state.js';

/** Direct and open challenges, and accepting them. */
export interface ChallengeInput {
  opponent_handle?: string | null;
  bounty_sol?: number | null;
}

export function createChallenge(p: Platform, challenger: Agent, input: ChallengeInput): Challenge {
  requireResearchDone(p, challenger);
  const opponent = input.opponent_handle ? requireAgent(p, input.opponent_handle) : null;
  if (opponent?.id === challenger.id)
    fail('bad_request', 'you cannot challenge yourself', { field: 'opponent_handle' });
  const bounty =
    input.bounty_sol !== undefined && input.bounty_sol !== null ? checkBountySol(p, input.bounty_sol) : null;
  if (bounty !== null) requireStake(p, challenger, bounty);
  if (countOpenChallenges(p, challenger) >= p.ruleset.challenges.maxOpenPerAgent) {
    fail(
      'too_many_open_challenges',
      `at most ${p.ruleset.challenges.maxOpenPerAgent} open challenges at once`,
    );
  }
  if (opponent) requireNotBlocked(p, challenger, opponent, 'a direct challenge');
  const challenge = new ChallengeRecord(
    { id: p.newId('challenge'), challengerId: challenger.id, opponentId: opponent?.id ?? null },
    { createdAtMs: p.nowMs, expiresAtMs: p.nowMs + p.ruleset.challenges.expiryMs },
    {
      bountyLamports: bounty,
      escrowAddress: bounty === null ? null : deriveEscrowAddress(p, 'bounty_escrow'),
    },
  );
  challenge.expiryTimer = p.setTimer(challenge.expiresAtMs, {
    kind: 'challenge_expiry',
    challengeId: challenge.id,
  });
  p.state.challenges.set(challenge.id, challenge);
  p.state.openChallengeIds.add(challenge.id);
  reserveStake(p, challenge);
  p.emit({
    type: 'challenge_created',
    t: p.nowMs,
    challengeId: challenge.id,
    challengerId: challenger.id,
    opponentId: challenge.opponentId,
  });
  return challenge;
}

function countOpenChallenges(p: Platform, agent: Agent): number {
  return openChallengesInvolving(p, agent.id).filter((c) => c.challengerId === agent.id).length;
}

/** Accepting checks, in precedence order; each refusal changes nothing. */
export function acceptChallenge(
  p: Platform,
  acceptor: Agent,
  challengeId: string,
): { challenge: Challenge; game: Game } {
  const challenge = p.state.challenges.get(challengeId) ?? fail('not_found', `no challenge "${challengeId}"`);
  requireResearchDone(p, acceptor);
  if (challenge.status !== 'open') fail('challenge_not_open', `challenge is ${challenge.status}`);
  if (challenge.challengerId === acceptor.id)
    fail('cannot_accept_own_challenge', 'you cannot accept your own challenge');
  if (challenge.opponentId !== null && challenge.opponentId !== acceptor.id) {
    fail('challenge_not_for_you', 'this direct challenge names another opponent');
  }
  if (challenge.opponentId !== null)
    requireNotBlocked(p, acceptor, p.state.agents.get(challenge.challengerId)!, 'this direct challenge');
  if (challenge.bountyLamports !== null) requireStake(p, acceptor, challenge.bountyLamports);
  challenge.status = 'accepted';
  challenge.acceptedById = acceptor.id;
  challenge.acceptedAtMs = p.nowMs;
  closeChallenge(p, challenge);
  p.emit({ type: 'challenge_accepted', t: p.nowMs, challengeId: challenge.id, agentId: acceptor.id });
  // WIRE §5: the challenger plays White, the acceptor Black; the game keeps the challenge's id.
  const game =
    challenge.bountyLamports === null
      ? startGame(p, { id: challenge.id, whiteId: challenge.challengerId, blackId: acceptor.id })
      : fundBountyGame(p, challenge, acceptor);
  if (challenge instanceof ChallengeRecord) challenge.settle(game);
  return { challenge, game };
}

/** Every way out of `open` (accept, expiry) passes here, so the stake reservation ends exactly once. */
function closeChallenge(p: Platform, challenge: Challenge): void {
  p.cancelTimer(challenge.expiryTimer);
  challenge.expiryTimer = null;
  p.state.openChallengeIds.delete(challenge.id);
  releaseStake(p, challenge);
}

/** OURS: an unaccepted challenge expires after `challenges.expiryMs`, so stale ones do not pile up. */
export function onChallengeExpiry(p: Platform, timer: PlatformTimer): void {
  if (timer.kind !== 'challenge_expiry') return;
  const challenge = p.state.challenges.get(timer.challengeId);
  if (!challenge || challenge.status !== 'open') return;
  challenge.status = 'expired';
  closeChallenge(p, challenge);
  p.emit({ type: 'challenge_expired', t: p.nowMs, challengeId: challenge.id });
}

export function openChallenges(p: Platform): Challenge[] {
  return [...p.state.openChallengeIds].map((id) => p.state.challenges.get(id)!);
}

export function openChallengeOf(p: Platform, agent: Agent): Challenge | undefined {
  return openChallengesInvolving(p, agent.id).find(
    (c) => c.challengerId === agent.id && c.opponentId === null,
  );
}
