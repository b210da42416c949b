import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/kernel/rng.js';
import { ReplayableIds } from '../../src/kernel/replayable-ids.js';
import { GameRecord } from '../../src/platform/chess/storage/game-record.js';
import { boardResult, currentFen, legalMoves } from '../../src/rules/chess/chess.js';
import type { NormalMove } from 'chessops';

/**
 * A game in play answers its position from its last move's record (GameRecord.fen); the board is the truth
 * that record must match at every ply, from the start on, however the game goes.
 */
describe('GameRecord.fen', () => {
  it('is the live board’s FEN before the first move and after every move of random games', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 1, maxLength: 160 }), (draws) => {
        const ids = new ReplayableIds(new Rng('fen-check', 'moves'), 64);
        const game = new GameRecord({ id: 'g', whiteId: 'w', blackId: 'b' }, 0, 0, ids);
        expect(game.fen).toBe(currentFen(game.board));
        for (const [ply, draw] of draws.entries()) {
          if (boardResult(game.board) !== null) break;
          const moves = legalMoves(game.board);
          game.play(moves[draw % moves.length] as NormalMove, ply * 1000);
          expect(game.fen).toBe(currentFen(game.board));
        }
      }),
      { numRuns: 60 },
    );
  });
});
