import type { Move, NormalMove } from 'chessops';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { turnMoves } from '../../agents/chess/fen-moves.js';
import { Rng } from '../../src/kernel/rng.js';
import { positionFromFen } from '../../src/rules/chess/fen-reader.js';
import {
  currentFen,
  legalMoves,
  newBoard,
  playForSan,
  toWireUci,
  type Board,
} from '../../src/rules/chess/chess.js';

/**
 * The random persona reads its turn on a MailBoard (fen-moves.ts): the moves, their order, and both
 * spellings must be chessops' (through chess.ts) exactly, or its seeded draws would pick other moves and
 * a run would change.
 */
function agentBoard(fen: string): Board {
  return { pos: positionFromFen(fen), repetitions: new Map(), plies: 0 };
}

/** Each legal move by chess.ts: wire UCI and SAN (each SAN on a board of its own: playForSan plays it). */
function byChessops(fen: string): Array<{ uci: string; san: string }> {
  const board = agentBoard(fen);
  return legalMoves(board).map((move) => ({
    uci: toWireUci(board, move),
    san: playForSan(agentBoard(fen), move as NormalMove),
  }));
}

function byMailBoard(fen: string): Array<{ uci: string; san: string }> | undefined {
  const turn = turnMoves(fen);
  return turn?.moves.map((move) => ({ uci: turn.uci(move), san: turn.san(move) }));
}

/**
 * A position after `plies` moves drawn from `seed`: captures, castling and pawn moves preferred as `bias`
 * says, so that positions reach open lines, pins, checks, castling, promotions and en passant.
 */
function playout(seed: number, plies: number, bias: number): string | undefined {
  const rng = new Rng(`fen-moves-${seed}`);
  const board = newBoard();
  for (let i = 0; i < plies; i++) {
    const moves = legalMoves(board);
    if (moves.length === 0) return currentFen(board);
    const preferred = moves.filter((m) => isPreferred(board, m));
    board.pos.play(rng.pick(preferred.length > 0 && rng.chance(bias) ? preferred : moves));
  }
  return currentFen(board);
}

function isPreferred(board: Board, move: Move): boolean {
  if (!('from' in move)) return false;
  const pos = board.pos;
  return pos.board.occupied.has(move.to) || pos.board.pawn.has(move.from) || pos.board.king.has(move.from);
}

describe('the random persona’s moves on a MailBoard (fen-moves.ts) against chessops', () => {
  it('lists the same legal moves in the same order, spelled the same in UCI and SAN', () => {
    let moves = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 200 }),
        fc.double({ min: 0, max: 0.95, noNaN: true }),
        (seed, plies, bias) => {
          const fen = playout(seed, plies, bias);
          if (fen === undefined) return;
          const expected = byChessops(fen);
          moves += expected.length;
          expect(byMailBoard(fen), fen).toEqual(expected);
        },
      ),
      { numRuns: 500 },
    );
    expect(moves).toBeGreaterThan(8_000);
  });

  it('agrees on hand-picked positions: castling, en passant, promotions, checks, mates, pins, rivals', () => {
    const fens = [
      'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', // castling both ways, both sides
      'r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1',
      'r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1', // f2 rook: the king's crossing square f1 is safe, e1 in check? no
      'r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1', // g2 rook attacks g1: no short castling
      '1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1', // b8 rook: long castling through an attacked b1 is allowed
      'r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1', // in check: no castling
      'rn2k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1', // a knight on b1 blocks long castling
      'k7/8/8/2KPp2r/8/8/8/8 w - e6 0 2', // en passant would expose the king on the rank
      '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2', // en passant
      '8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 2', // en passant opens the rank: check
      '4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 2',
      '1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1', // promote by pushing or by taking
      '4k3/8/8/8/8/8/p7/1N2K3 b - - 0 1',
      '4k3/8/8/8/8/8/8/N3K2N w - - 0 1', // knights as rivals
      '4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1', // knights on one file
      '7k/8/8/3Q4/8/8/3Q1Q2/K7 w - - 0 1', // three queens reach d4
      '4k3/8/8/8/8/8/8/R3K2R w - - 0 1', // rooks on one rank, no rights
      '7k/6pp/8/8/8/8/8/K5R1 w - - 0 1', // Rg1-g8 is mate... if the g-file were open
      '6k1/5ppp/8/8/8/8/8/K2R4 w - - 0 1', // Rd8#
      'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', // checkmated: no move
      '7k/8/6QK/8/8/8/8/8 b - - 0 1', // stalemate
      '4k3/4r3/8/8/4N3/8/8/4K3 w - - 0 1', // pinned knight
      '4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1', // pinned pawn
      'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3', // en passant f6 beside d5
      '8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1', // en passant would expose the king
      '8/8/3k4/8/2pP4/8/8/3K1B2 b - d3 0 1', // the double step checks; taking it en passant answers
    ];
    for (const fen of fens) expect(byMailBoard(fen), fen).toEqual(byChessops(fen));
  });

  it('leaves any other text to chessops', () => {
    for (const fen of [
      '4k3/8/8/8/8/8/8/4K3', // the placement alone
      '4k3/8/8/8/8/8/8/4K3 w - - 0', // five fields
      '4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra',
      '4k3/8/8/8/8/8/8/4K3 x - - 0 1', // no side to move
      '4k3/8/8/8/8/8/8/4K2R w HAha - 0 1', // Shredder castling
      '4k3/8/8/8/8/8/8/3K3R w K - 0 1', // a right without the king on e1
      '4k3/8/8/8/8/8/8/4KK2 w - - 0 1', // two white kings
      '4k3/8/8/8/8/8/8/4K3 w - z9 0 1',
      '4k3/8/8/8/8/8/8/4K3 w - - 00000 1',
      '4k3/8/8/9/8/8/8/4K3 w - - 0 1',
      '4k3/8/8/8/8/8/8/4K3/8 w - - 0 1',
    ])
      expect(turnMoves(fen), fen).toBeUndefined();
  });
});
