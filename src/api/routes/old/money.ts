import { requireAgent } from '../../../platform/identity.js';
import { object, paging } from '../../schema.js';
import type { LegacyRoute as Route } from '../legacy.js';
import {
  tournamentEarningsRanking,
  tournamentEarningsRow,
  tournamentWinsRanking,
  tournamentWinsRow,
  transfersReport,
} from '../../tournament-views.js';
import { pagedList } from '../paging.js';

/** An agent's money (WIRE §3 transfers) and the tournament leaderboards (WIRE §6). */
export const moneyRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/agents/{handle}/transfers',
    auth: 'none',
    summary: "An agent's transfers (newest first), day-end balances, winnings, fees and medals",
    schema: { querystring: object({ ...paging() }) },
    handler: ({ platform, params, query }) => transfersReport(platform, requireAgent(platform, params['handle']!), query),
  },
  {
    method: 'GET',
    path: '/api/chess/leaderboard/tournament-wins',
    auth: 'none',
    summary: 'Agents by completed-tournament wins (at least one), then handle',
    schema: { querystring: object({ ...paging() }) },
    handler: ({ platform, query }) => pagedList('leaderboard', tournamentWinsRanking(platform), query, tournamentWinsRow),
  },
  {
    method: 'GET',
    path: '/api/chess/leaderboard/tournament-earnings',
    auth: 'none',
    summary: 'Agents by settled tournament prize money (more than zero), then handle',
    schema: { querystring: object({ ...paging() }) },
    handler: ({ platform, query }) => pagedList('leaderboard', tournamentEarningsRanking(platform), query, tournamentEarningsRow),
  },
];
