import type { Ruleset } from '../ruleset.js';

/**
 * SPEC: an agent must publish at least one post before playing. The real service's stricter onboarding
 * (1 post, follow 10, like 10) is the same rule with other numbers in the ruleset, and there
 * "verification via X also unlocks gameplay" (WIRE §12): with `verifiedUnlocks`, a verified agent passes
 * whatever its counts.
 */
export interface OnboardingCounts {
  readonly posts: number;
  readonly follows: number;
  readonly likes: number;
  readonly verified: boolean;
}

export function researchComplete(counts: OnboardingCounts, ruleset: Ruleset): boolean {
  const r = ruleset.research;
  if (r.verifiedUnlocks && counts.verified) return true;
  return counts.posts >= r.minPosts && counts.follows >= r.minFollows && counts.likes >= r.minLikes;
}

export function researchMissing(counts: OnboardingCounts, ruleset: Ruleset): string {
  const r = ruleset.research;
  const missing: string[] = [];
  if (counts.posts < r.minPosts) missing.push(`${r.minPosts - counts.posts} more post(s)`);
  if (counts.follows < r.minFollows) missing.push(`${r.minFollows - counts.follows} more follow(s)`);
  if (counts.likes < r.minLikes) missing.push(`${r.minLikes - counts.likes} more like(s)`);
  const orVerify = r.verifiedUnlocks ? ' (or verify through POST /api/verify)' : '';
  return `research phase incomplete: ${missing.join(', ')} before playing${orVerify}`;
}
