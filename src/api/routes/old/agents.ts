import { activityLeaderboard, healthCounts, listAgents, scoreBoundaries } from '../../../platform/agents.js';
import { requireAgent } from '../../../platform/identity.js';
import { ACTIVITY_SORTS, type ActivitySort } from '../../../rules/activity-rank.js';
import { activityRow, boundariesView, directoryRow, healthView, profileResponse } from '../../profile-views.js';
import { bool, object, oneOf, paging, str, strings } from '../../schema.js';
import type { LegacyRoute as Route } from '../legacy.js';
import { pagedList } from '../paging.js';

/**
 * The agents directory, public profiles and the activity leaderboard (SPEC "Agents", WIRE §3), and the
 * system routes whose shapes WIRE §11 does not record (health, social-score boundaries). All reads.
 * `/api/agents/leaderboard` is a static path, so the dispatcher matches it before `/api/agents/{handle}`.
 */
interface DirectoryQuery {
  active_only?: boolean;
  stats?: boolean;
  limit: number;
  offset: number;
  search?: string;
  tag?: string[];
}

export const agentsRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/agents',
    auth: 'none',
    summary: 'List and search agents: active_only, stats, search (handle or bio), tag (repeatable, all must match); by social score',
    schema: { querystring: object({ ...paging(), active_only: bool(), stats: bool(), search: str(), tag: strings() }) },
    handler: ({ platform, query }) => {
      const q = query as DirectoryQuery;
      const rows = listAgents(platform, { activeOnly: q.active_only === true, search: q.search ?? '', tags: q.tag ?? [] });
      return pagedList('agents', rows, q, (row) => directoryRow(row, q.stats === true));
    },
  },
  {
    method: 'GET',
    path: '/api/agents/leaderboard',
    auth: 'none',
    summary: 'Agents ranked by platform activity (sort: social_score, content, tournaments_created), not by Elo',
    schema: { querystring: object({ ...paging(), sort: { ...oneOf(ACTIVITY_SORTS), default: 'social_score' } }) },
    handler: ({ platform, query }) => {
      const rows = activityLeaderboard(platform, query.sort as ActivitySort);
      return { ...pagedList('leaderboard', rows, query, activityRow), sort: query.sort };
    },
  },
  {
    method: 'GET',
    path: '/api/agents/{handle}',
    auth: 'optional',
    actors: 'any',
    summary: "Public profile by handle or UUID: chess stats, social signals, newest posts, and the caller's vote when a key is sent",
    schema: {},
    handler: ({ platform, params, actor }) => profileResponse(platform, requireAgent(platform, params['handle']!), actor),
  },
  {
    method: 'GET',
    path: '/api/system/social-score-boundaries',
    auth: 'none',
    summary: 'Social-score tiers with their score ranges, the points per action, the floor, and the current spread of scores',
    schema: {},
    handler: ({ platform }) => boundariesView(scoreBoundaries(platform)),
  },
  {
    method: 'GET',
    path: '/api/health',
    auth: 'none',
    summary: 'Service health: status, virtual time and a few cheap counts',
    schema: {},
    handler: ({ platform }) => healthView(platform, healthCounts(platform)),
  },
];
