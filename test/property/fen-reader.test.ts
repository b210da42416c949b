import fc from 'fast-check';
import { Chess } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { describe, expect, it } from 'vitest';
import { legalMoves, newBoard, playMove } from '../../src/rules/chess/chess.js';
import { positionFromFen } from '../../src/rules/chess/fen-reader.js';

/**
 * positionFromFen reads the common FEN form itself and hands every other text to chessops: whatever the
 * path, the position must be chessops' own, field for field, with the same legal moves in the same order
 * (the random persona draws its move by index from that list).
 */
function byChessops(fen: string): Chess {
  return Chess.fromSetup(parseFen(fen).unwrap()).unwrap();
}

/** Every field of a position, square sets as their two words. */
function fields(pos: Chess): unknown {
  const board = pos.board;
  const sets = [
    'occupied',
    'promoted',
    'white',
    'black',
    'pawn',
    'knight',
    'bishop',
    'rook',
    'queen',
    'king',
  ];
  return {
    board: sets.map((name) => {
      const set = (board as unknown as Record<string, { lo: number; hi: number }>)[name]!;
      return [name, set.lo, set.hi];
    }),
    turn: pos.turn,
    castles: {
      rights: [pos.castles.castlingRights.lo, pos.castles.castlingRights.hi],
      rook: pos.castles.rook,
      path: Object.values(pos.castles.path).flatMap((sides) => Object.values(sides).map((s) => [s.lo, s.hi])),
    },
    epSquare: pos.epSquare,
    pockets: pos.pockets,
    remainingChecks: pos.remainingChecks,
    halfmoves: pos.halfmoves,
    fullmoves: pos.fullmoves,
  };
}

function expectSamePosition(fen: string): void {
  const fast = positionFromFen(fen);
  const reference = byChessops(fen);
  expect(fields(fast), fen).toEqual(fields(reference));
  const moves = (pos: Chess) => legalMoves({ pos, repetitions: new Map(), plies: 0 });
  expect(moves(fast), fen).toEqual(moves(reference));
}

/** FENs of the positions a random game passes through (castling rights lost, en passant, promotions). */
const gameFens = fc.array(fc.nat(), { minLength: 1, maxLength: 160 }).map((picks) => {
  const board = newBoard();
  const fens: string[] = [];
  for (const pick of picks) {
    const moves = legalMoves(board);
    if (moves.length === 0) break;
    fens.push(playMove(board, moves[pick % moves.length]!).fenAfter);
  }
  return fens;
});

describe('positionFromFen', () => {
  it('gives chessops’ position for every position of random games', () => {
    fc.assert(
      fc.property(gameFens, (fens) => {
        for (const fen of fens) expectSamePosition(fen);
      }),
      { numRuns: 60 },
    );
  });

  it('reads unusual but legal fields as chessops does', () => {
    for (const fen of [
      'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
      'r3k2r/8/8/8/8/8/8/R3K2R b Kq - 99 120',
      '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2',
      '4k3/8/8/8/8/8/8/4K3 w - - 0 0', // fullmove 0 reads as 1
      '1r2k2r/8/8/8/8/8/8/R3K1R1 w KQk - 0 1', // rights with rooks off the corners
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1', // Shredder letters: chessops reads them
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -', // counters left out
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1', // underscores for spaces
    ])
      expectSamePosition(fen);
  });

  it('refuses what chessops refuses', () => {
    for (const fen of [
      '',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1',
      'rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 12345 1',
      '8/8/8/8/8/8/8/8 w - - 0 1', // no kings
    ]) {
      expect(() => byChessops(fen), fen).toThrow();
      expect(() => positionFromFen(fen), fen).toThrow();
    }
  });

  it('writes back the FEN it read', () => {
    const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
    expect(makeFen(positionFromFen(fen).toSetup())).toBe(fen);
  });
});
