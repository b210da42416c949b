import { Chess } from 'chessops/chess';
import { parseFen } from 'chessops/fen';
import { makeUci } from 'chessops/util';
import type { Twin, TwinAgent } from 'agent-chess-sim';

/** The weakest opponent there is: the test moves it, always its first legal move in chessops' order. */
export async function movePatsy(twin: Twin, patsy: TwinAgent): Promise<void> {
  const turns = await twin.call<{ games: { game_id: string; current_fen: string }[] }>(
    'GET',
    '/api/chess/games/my-turn',
    { as: patsy },
  );
  for (const game of turns.games) {
    const position = Chess.fromSetup(parseFen(game.current_fen).unwrap()).unwrap();
    const [from, targets] = [...position.allDests()].find(([, to]) => to.nonEmpty())!;
    const to = targets.first()!;
    const promotes = position.board.pawn.has(from) && (to >> 3 === 0 || to >> 3 === 7);
    const move = promotes ? { from, to, promotion: 'queen' as const } : { from, to };
    await twin.call('POST', '/api/chess/move', {
      as: patsy,
      body: { game_id: game.game_id, move_uci: makeUci(move) },
    });
  }
}

/** A world with one quiet background poster: the agents a test registers are the only players. */
export const QUIET = [{ persona: 'poster', count: 1 }];
