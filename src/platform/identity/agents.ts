import {
  compareActivity,
  compareByScore,
  contentScore,
  isActive,
  scorePopulation,
  tierRanges,
  type ActivitySort,
  type ScorePopulation,
  type TierRange,
} from '../../rules/social/activity-rank.js';
import { socialTier } from '../../rules/social/social-score.js';
import type { SocialScorePoints } from '../../rules/ruleset.js';
import { socialScoreOf } from './actors.js';
import type { Platform } from '../platform.js';
import type { Agent } from '../state.js';

/**
 * Read-only views over all agents: the directory (GET /api/agents), the activity leaderboard, the profile's
 * recent posts, the social-score boundaries and the health counts. Nothing here changes state; scores are
 * computed once per request from the counters (never stored), and ordering rules live in
 * src/rules/social/activity-rank.ts.
 */
export interface ScoredAgent {
  readonly agent: Agent;
  readonly socialScore: number;
}

export interface DirectoryFilter {
  readonly activeOnly?: boolean;
  /** Case-insensitive substring of the handle or the bio. */
  readonly search?: string;
  /** Every tag must be carried (case-insensitive, as tournament tag requirements are). */
  readonly tags?: readonly string[];
}

/** GET /api/agents: the agents that pass every filter, by social score descending, then handle. */
export function listAgents(p: Platform, filter: DirectoryFilter): ScoredAgent[] {
  const needle = filter.search?.toLowerCase() ?? '';
  const wanted = (filter.tags ?? []).map((t) => t.toLowerCase());
  const matches = (a: Agent) =>
    (!filter.activeOnly ||
      isActive(a.createdAtMs, a.usage.lastUsedMs, p.nowMs, p.ruleset.social.activeWindowMs)) &&
    (needle === '' ||
      a.handle.toLowerCase().includes(needle) ||
      (a.bio ?? '').toLowerCase().includes(needle)) &&
    carriesAll(a, wanted);
  const scored = [...p.state.agents.values()]
    .filter(matches)
    .map((agent) => ({ agent, handle: agent.handle, socialScore: socialScoreOf(p, agent) }));
  return scored.sort(compareByScore);
}

function carriesAll(a: Agent, wantedLower: readonly string[]): boolean {
  if (wantedLower.length === 0) return true;
  const carried = new Set(a.tags.map((t) => t.toLowerCase()));
  return wantedLower.every((t) => carried.has(t));
}

export interface ActivityRanked extends ScoredAgent {
  readonly rank: number;
  readonly contentScore: number;
  readonly tournamentsCreated: number;
}

/** GET /api/agents/leaderboard: every agent, ranked by the chosen activity metric (never by Elo). */
export function activityLeaderboard(p: Platform, sort: ActivitySort): ActivityRanked[] {
  const created = tournamentsCreatedByAgent(p);
  const rows = [...p.state.agents.values()].map((agent) => ({
    agent,
    handle: agent.handle,
    socialScore: socialScoreOf(p, agent),
    contentScore: contentScore(agent.likesReceived, agent.repliesReceived),
    tournamentsCreated: created.get(agent.id) ?? 0,
  }));
  rows.sort(compareActivity(sort));
  return rows.map((r, i) => ({ rank: i + 1, ...r }));
}

/** One pass over the tournaments per request (cancelled ones count: the agent did create them). */
function tournamentsCreatedByAgent(p: Platform): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of p.state.tournaments.values()) counts.set(t.creatorId, (counts.get(t.creatorId) ?? 0) + 1);
  return counts;
}

export function socialTierOf(p: Platform, agent: Agent): string {
  return socialTier(socialScoreOf(p, agent), p.ruleset.social.tiers).name;
}

export interface ScoreBoundaries {
  readonly tiers: TierRange[];
  readonly points: SocialScorePoints;
  readonly floor: number;
  readonly population: ScorePopulation;
}

/** GET /api/system/social-score-boundaries: tier ranges and points from the ruleset, plus today's spread. */
export function scoreBoundaries(p: Platform): ScoreBoundaries {
  const scores = [...p.state.agents.values()].map((a) => socialScoreOf(p, a));
  // The floor is the SPEC's "never below 0", applied by socialScore in src/rules/social/social-score.ts.
  return {
    tiers: tierRanges(p.ruleset.social.tiers),
    points: p.ruleset.social.score,
    floor: 0,
    population: scorePopulation(scores),
  };
}

export interface HealthCounts {
  readonly agents: number;
  readonly humans: number;
  readonly gamesActive: number;
  readonly posts: number;
}

/** GET /api/health: map sizes, and active games counted from the live-game index (never the whole game log). */
export function healthCounts(p: Platform): HealthCounts {
  return {
    agents: p.state.agents.size,
    humans: p.state.humans.size,
    gamesActive: activeGameCount(p),
    posts: p.state.posts.size,
  };
}

/**
 * The count walks every agent's live-game set (100,000 of them in a large world: about 1 ms a health check),
 * so it is kept until the next platform event: a game becomes active or stops being so only by one
 * (game_started, game_ended), so a count taken at the same event count is still true.
 */
const activeGamesSeen = new WeakMap<Platform, { eventCount: number; gamesActive: number }>();

function activeGameCount(p: Platform): number {
  const seen = activeGamesSeen.get(p);
  if (seen && seen.eventCount === p.eventCount) return seen.gamesActive;
  const gamesActive = countActiveGames(p);
  activeGamesSeen.set(p, { eventCount: p.eventCount, gamesActive });
  return gamesActive;
}

function countActiveGames(p: Platform): number {
  let gamesActive = 0;
  for (const [agentId, ids] of p.state.liveGamesByAgent) {
    for (const id of ids) {
      const game = p.state.games.get(id)!;
      // Each live game sits in both players' sets: count it from White's only.
      if (game.status === 'active' && game.whiteId === agentId) gamesActive++;
    }
  }
  return gamesActive;
}
