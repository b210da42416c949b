import { fail } from '../../kernel/errors.js';
import {
  finishedGamesOf,
  isAgentsTurn,
  listGames,
  liveGamesOf,
  requireGame,
  submitMove,
} from '../../platform/chess/games.js';
import { allGamesPage } from '../../platform/chess/game-index.js';
import { requireAgent } from '../../platform/identity/identity.js';
import * as C from '../contract/games.js';
import { caller, implement, type Route } from '../types.js';
import { gameDetail, gameSummary, historyRow, moveView, myTurnRow } from '../views.js';
import { pagedList, pageOfKept, resolved } from './paging.js';

/** Games (WIRE §4). Lists are newest first. */
export const gameRoutes: Route[] = [
  implement(C.listGames, ({ platform, agent, query }) => {
    const player = query.player_handle ?? query.player;
    const who = player ? requireAgent(platform, player) : null;
    if (who === null && !query.my_turn) {
      const { limit, offset } = resolved(query);
      const { games, total } = allGamesPage(platform, query.status, limit, offset);
      return { games: games.map((g) => gameSummary(platform, g)), total, limit, offset };
    }
    if (query.my_turn && !agent) fail('authentication_required', 'my_turn needs an API key');
    // Games on the caller's turn are among the caller's own games: read those, not every game.
    let games = listGames(platform, who?.id ?? agent!.id, query.status);
    if (query.my_turn) games = games.filter((g) => isAgentsTurn(g, agent!.id));
    return pagedList('games', games, query, (g) => gameSummary(platform, g));
  }),
  implement(C.myTurn, (ctx) => {
    // Every agent polls this each heartbeat: one pass makes the page's rows and counts the rest.
    const me = caller(ctx);
    const { rows, total } = pageOfKept(
      liveGamesOf(ctx.platform, me.id),
      ctx.query,
      (g) => isAgentsTurn(g, me.id),
      (g) => myTurnRow(ctx.platform, g, me.id),
    );
    return { games: rows, total };
  }),
  implement(C.gameHistory, (ctx) => {
    const me = caller(ctx);
    const done = finishedGamesOf(ctx.platform, me.id);
    return pagedList('games', done, ctx.query, (g) => historyRow(ctx.platform, g, me));
  }),
  implement(C.getGame, ({ platform, agent, params }) =>
    gameDetail(platform, requireGame(platform, params['id']!), agent),
  ),
  implement(C.submitMove, (ctx) => {
    if (!ctx.body.move_san && !ctx.body.move_uci)
      fail('validation_error', 'move_san or move_uci is required', { field: 'move_san' });
    const { game, move } = submitMove(ctx.platform, caller(ctx), ctx.body);
    return {
      success: true as const,
      move: moveView(move),
      game_status: game.status,
      game_result: game.end?.result ?? null,
      end_reason: game.end?.reason ?? null,
    };
  }),
];
