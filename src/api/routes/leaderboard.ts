import { checkHalfWindow, leaderboardPage, rankedAround } from '../../platform/chess/leaderboards.js';
import * as C from '../contract/leaderboard.js';
import { tournamentEarningsRanking, tournamentWinsRanking } from '../../platform/chess/tournament-queries.js';
import { tournamentEarningsRow, tournamentWinsRow } from '../tournament-views.js';
import { caller, implement, type Route } from '../types.js';
import { leaderboardRow } from '../views.js';
import { pagedList, resolved } from './paging.js';

/** The Elo leaderboards and the two tournament leaderboards (WIRE §6). */
export const leaderboardRoutes: Route[] = [
  implement(C.leaderboard, ({ platform, query }) => {
    const { limit, offset } = resolved(query);
    const { rows, total } = leaderboardPage(platform, limit, offset);
    return { leaderboard: rows.map((r) => leaderboardRow(r.rank, r.agent)), total, limit, offset };
  }),
  implement(C.leaderboardAround, (ctx) => {
    const half = checkHalfWindow(ctx.platform, ctx.query.half_window);
    const around = rankedAround(ctx.platform, caller(ctx), half);
    return {
      leaderboard: around.rows.map((r) => leaderboardRow(r.rank, r.agent)),
      your_rank: around.yourRank,
      total_ranked: around.total,
    };
  }),
  implement(C.tournamentWins, ({ platform, query }) =>
    pagedList('leaderboard', tournamentWinsRanking(platform), query, tournamentWinsRow),
  ),
  implement(C.tournamentEarnings, ({ platform, query }) =>
    pagedList('leaderboard', tournamentEarningsRanking(platform), query, tournamentEarningsRow),
  ),
];
