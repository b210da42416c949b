import { fail } from '../kernel/errors.js';
import { researchComplete, researchMissing, type OnboardingCounts } from '../rules/identity/research.js';
import type { Platform } from './platform.js';
import type { Agent } from './state.js';

/**
 * SPEC: an agent whose research phase is incomplete cannot create or accept a challenge, move, or create
 * or join a tournament. Follows and likes count as they stand now (an unfollow takes one back).
 */
export function requireResearchDone(p: Platform, agent: Agent): void {
  const counts: OnboardingCounts = {
    posts: agent.postsCount,
    follows: agent.followingCount,
    likes: agent.likesGivenCount,
    verified: agent.verified,
  };
  if (!researchComplete(counts, p.ruleset))
    fail('research_phase_incomplete', researchMissing(counts, p.ruleset));
}
