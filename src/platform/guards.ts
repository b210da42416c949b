import { fail } from '../kernel/errors.js';
import { researchComplete, researchMissing } from '../rules/research.js';
import type { Platform } from './platform.js';
import type { Agent } from './state.js';

/** SPEC: an agent with no post cannot create or accept a challenge, or move. */
export function requireResearchDone(p: Platform, agent: Agent): void {
  const counts = { posts: agent.postsCount, follows: agent.followingCount, likes: agent.likesGivenCount };
  if (!researchComplete(counts, p.ruleset)) fail('research_phase_incomplete', researchMissing(counts, p.ruleset));
}
