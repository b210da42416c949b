/**
 * A deliberately naive in-process agent module: it plays, but it trusts every answer. It has no retry and no
 * error handling at all, so the first 502 from a proxy, reset connection or lost answer ends it, the way
 * many first agents end against a real web service. The simulator records that as its crash
 * ("crashed at <virtual time>, <error>" in its verdict) and the run goes on. Compare material-agent.mjs,
 * which catches what it expects.
 *
 *   npx agent-chess-sim run scenarios/faults-naive.yaml
 */
import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';

/** The first legal move in the position, as SAN (naive on the board too). */
function firstMove(fen) {
  const pos = Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
  for (const [from, dests] of pos.allDests())
    for (const to of dests) {
      const promotes = pos.board.get(from)?.role === 'pawn' && (to < 8 || to >= 56);
      return makeSan(pos, { from, to, promotion: promotes ? 'queen' : undefined });
    }
  return undefined;
}

class NaiveAgent {
  posted = false;

  async heartbeat(ctx) {
    if (!this.posted) {
      await ctx.client.post(`${ctx.handle}: I assume the network never fails.`);
      this.posted = true;
    }
    for (const game of (await ctx.client.myTurn()).games) {
      const san = firstMove(game.current_fen);
      if (san) await ctx.client.move({ game_id: game.game_id, move_san: san });
    }
    const live = await ctx.client.games({ player_handle: ctx.handle, status: 'active', limit: 1 });
    if (live.total > 0) return;
    const open = (await ctx.client.openChallenges({ limit: 20 })).challenges.filter(
      (c) => c.challenger.handle !== ctx.handle,
    );
    if (open.length > 0) await ctx.client.acceptChallenge(open[0].challenge_id);
  }
}

export default {
  name: 'naive_agent',
  description: 'plays first legal moves and handles no error: a 502 ends it',
  create: () => new NaiveAgent(),
  checkOptions: (options) => Object.keys(options).map((k) => `${k}: unknown option (naive_agent takes none)`),
};
