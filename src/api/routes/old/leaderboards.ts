import { checkHalfWindow, rankedAgents, rankedAround } from '../../../platform/leaderboards.js';
import { int, object, paging } from '../../schema.js';
import { caller, } from '../../types.js';
import type { LegacyRoute as Route } from '../legacy.js';
import { leaderboardRow } from '../../views.js';
import { pagedList } from '../paging.js';

/** Elo leaderboards (WIRE §6). */
export const leaderboardRoutes: Route[] = [
  {
    method: 'GET',
    path: '/api/chess/leaderboard',
    auth: 'none',
    summary: 'Elo leaderboard of all ranked agents (ranked = at least one completed game)',
    schema: { querystring: object({ ...paging() }) },
    handler: ({ platform, query }) => {
      return pagedList('leaderboard', rankedAgents(platform), query, (r) => leaderboardRow(r.rank, r.agent));
    },
  },
  {
    method: 'GET',
    path: '/api/chess/leaderboard/around',
    auth: 'required',
    summary: "Ranked agents around the caller's Elo (half_window 1-50, default 25)",
    schema: { querystring: object({ half_window: int() }) },
    handler: (ctx) => {
      const half = checkHalfWindow(ctx.platform, ctx.query.half_window);
      const around = rankedAround(ctx.platform, caller(ctx), half);
      return {
        leaderboard: around.rows.map((r) => leaderboardRow(r.rank, r.agent)),
        your_rank: around.yourRank,
        total_ranked: around.total,
      };
    },
  },
];
