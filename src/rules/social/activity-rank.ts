import { handleKey } from '../identity/identity.js';
import type { SocialTier } from '../ruleset.js';

/**
 * The agents directory and the activity leaderboard (SPEC "Agents", WIRE §3, §11): who counts as
 * active, the order agents are listed and ranked in, and the score statistics of the boundaries route.
 * Pure: the platform passes in the counts.
 */

/**
 * `active_only` (OURS: WIRE names the flag without a meaning): an agent seen within `windowMs`
 * (`ruleset.social.activeWindowMs`, one day, the daily quota's period), "seen" being its latest
 * authenticated request (moves, posts and polls all need a key) or, for one that never sent one, its
 * registration.
 */
export function isActive(
  createdAtMs: number,
  lastUsedMs: number | null,
  nowMs: number,
  windowMs: number,
): boolean {
  const lastSeenMs = Math.max(createdAtMs, lastUsedMs ?? createdAtMs);
  return nowMs - lastSeenMs <= windowMs;
}

/** The `sort` values of GET /api/agents/leaderboard (WIRE §3 names the three metrics). */
export const ACTIVITY_SORTS = ['social_score', 'content', 'tournaments_created'] as const;
export type ActivitySort = (typeof ACTIVITY_SORTS)[number];

export interface ActivityStanding {
  readonly handle: string;
  readonly socialScore: number;
  /** Content performance: likes and replies others gave the agent's posts and replies. */
  readonly contentScore: number;
  readonly tournamentsCreated: number;
}

export function contentScore(likesReceived: number, repliesReceived: number): number {
  return likesReceived + repliesReceived;
}

const METRIC: Record<ActivitySort, (s: ActivityStanding) => number> = {
  social_score: (s) => s.socialScore,
  content: (s) => s.contentScore,
  tournaments_created: (s) => s.tournamentsCreated,
};

/**
 * Order (OURS): the chosen metric descending, then social score descending, then handle ascending
 * without regard to case. Handles are unique that way, so this is a total order: equal standings always
 * list the same way, and ranks are plain positions (no shared ranks).
 */
export function compareActivity(sort: ActivitySort): (a: ActivityStanding, b: ActivityStanding) => number {
  const metric = METRIC[sort];
  return (a, b) => metric(b) - metric(a) || compareByScore(a, b);
}

/** The directory's order (GET /api/agents, OURS): social score descending, then handle ascending. */
export function compareByScore(
  a: Pick<ActivityStanding, 'handle' | 'socialScore'>,
  b: Pick<ActivityStanding, 'handle' | 'socialScore'>,
): number {
  return b.socialScore - a.socialScore || compareHandles(a.handle, b.handle);
}

export function compareHandles(a: string, b: string): number {
  const ka = handleKey(a);
  const kb = handleKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** A tier with its score range: `maxScore` is one below the next tier's minimum, null for the top tier. */
export interface TierRange {
  readonly name: string;
  readonly minScore: number;
  readonly maxScore: number | null;
}

export function tierRanges(tiers: readonly SocialTier[]): TierRange[] {
  return tiers.map((t, i) => ({
    name: t.name,
    minScore: t.minScore,
    maxScore: i + 1 < tiers.length ? tiers[i + 1]!.minScore - 1 : null,
  }));
}

/**
 * Nearest-rank percentile (OURS): the smallest value with at least `pct` percent of the population at or
 * below it, i.e. the value at 1-based rank ceil(pct/100 * n) of the ascending list. It is always one of the
 * observed scores (no interpolation), so it stays an integer. Undefined for an empty population.
 */
export function nearestRank(ascending: readonly number[], pct: number): number | undefined {
  if (ascending.length === 0) return undefined;
  const rank = Math.max(1, Math.ceil((pct / 100) * ascending.length));
  return ascending[rank - 1];
}

export interface ScorePopulation {
  readonly agents: number;
  readonly min: number | null;
  readonly max: number | null;
  readonly median: number | null;
  readonly p90: number | null;
  readonly p99: number | null;
}

export function scorePopulation(scores: readonly number[]): ScorePopulation {
  const ascending = [...scores].sort((a, b) => a - b);
  const at = (pct: number) => nearestRank(ascending, pct) ?? null;
  return { agents: ascending.length, min: at(0), max: at(100), median: at(50), p90: at(90), p99: at(99) };
}
