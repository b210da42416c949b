import type { Move, NormalMove, Square } from 'chessops';
import { pawnAttacks } from 'chessops/attacks';
import type { Chess } from 'chessops/chess';
import { SquareSet } from 'chessops/squareSet';
import { opposite } from 'chessops/util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bestOneMoveWin,
  boardFromFen,
  materialGain,
  netGain,
  PIECE_VALUE,
} from '../../agents/personas/chess-eval.js';
import { Rng } from '../../src/kernel/rng.js';
import { currentFen, legalMoves, newBoard, toWireUci } from '../../src/rules/chess/chess.js';
import { gainOfMove, netGainOfMove } from '../../agents/chess/capture-look.js';
import { turnMoves } from '../../agents/chess/fen-moves.js';

/**
 * The one-move look on chessops' own legality (dests) and square sets, as the cautious persona first
 * computed it: capture-look.ts must give the same number for every move, or the persona would choose
 * differently and a seeded run would change.
 */
function referenceNetGain(pos: Chess, move: Move): number {
  const after = pos.clone();
  after.play(move);
  return materialGain(pos, move) - referenceBestWin(after);
}

function referenceBestWin(pos: Chess): number {
  let best = 0;
  for (const move of referenceGainfulMoves(pos)) {
    const gain = materialGain(pos, move);
    if (gain <= best) continue;
    const after = pos.clone();
    after.play(move);
    const lost = referenceCanRecapture(after, move.to)
      ? PIECE_VALUE[move.promotion ?? pos.board.getRole(move.from)!]
      : 0;
    best = Math.max(best, gain - lost);
  }
  return best;
}

function referenceCanRecapture(pos: Chess, square: Square): boolean {
  const ctx = pos.ctx();
  for (const from of pos.kingAttackers(square, pos.turn, pos.board.occupied)) {
    if (pos.dests(from, ctx).has(square)) return true;
  }
  return false;
}

/** Captures of anything but the king, en passant, and pawns pushed to promote (as queens), by chessops' dests. */
function referenceGainfulMoves(pos: Chess): NormalMove[] {
  const ctx = pos.ctx();
  const us = pos.turn;
  const pawns = pos.board.pieces(us, 'pawn');
  const promoting = (from: Square, to: Square): NormalMove =>
    pawns.has(from) && SquareSet.backranks().has(to) ? { from, to, promotion: 'queen' } : { from, to };
  const out: NormalMove[] = [];
  for (const to of pos.board[opposite(us)].diff(pos.board.king)) {
    for (const from of pos.kingAttackers(to, us, pos.board.occupied))
      if (pos.dests(from, ctx).has(to)) out.push(promoting(from, to));
  }
  const ep = pos.epSquare;
  if (ep !== undefined)
    for (const from of pawnAttacks(opposite(us), ep).intersect(pawns))
      if (pos.dests(from, ctx).has(ep)) out.push({ from, to: ep });
  for (const from of pawns.intersect(SquareSet.fromRank(us === 'white' ? 6 : 1))) {
    for (const to of pos.dests(from, ctx).diff(pos.board.occupied))
      out.push({ from, to, promotion: 'queen' });
  }
  return out;
}

/**
 * A position after `plies` moves drawn from `seed`, each a capture when `captureBias` says so and one is
 * legal: captures thin the board, so the positions reach open lines, pins, checks, promotions and en passant.
 */
function playout(seed: number, plies: number, captureBias: number): Chess | undefined {
  const rng = new Rng(`capture-look-${seed}`);
  const board = newBoard();
  for (let i = 0; i < plies; i++) {
    const moves = legalMoves(board);
    if (moves.length === 0) return undefined;
    const captures = moves.filter((m) => materialGain(board.pos, m) > 0);
    const pool = captures.length > 0 && rng.chance(captureBias) ? captures : moves;
    board.pos.play(rng.pick(pool));
  }
  return legalMoves(board).length === 0 ? undefined : board.pos;
}

/** Pins, checks, en passant, promotions and castling. */
const HAND_PICKED = [
  '4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1', // undefended knight
  '4k3/8/4p3/3q4/8/8/8/3RK3 w - - 0 1', // a defended queen
  '4k3/4r3/8/8/4N3/8/8/4K3 w - - 0 1', // the knight is pinned to its king
  'k7/8/8/2KPp2r/8/8/8/8 w - e6 0 2', // en passant would expose the king on the rank
  '4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2', // en passant wins a pawn
  '4k3/8/8/3pP3/4N3/8/8/4K3 w - d6 0 2', // ... and removes the pawn that attacks the knight
  '4k3/8/8/5n2/3pP3/8/8/4K3 b - e3 0 2', // Black's en passant removes the pawn that attacks f5
  '1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1', // promote by pushing or by taking
  'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', // castling both ways
  '4k3/8/8/3b4/8/5N2/8/4K2R w K - 0 1', // castled, the rook on f1 defends the knight
  '4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1', // the d2 pawn is pinned
  '3rk3/8/8/8/8/8/3Q4/3K4 w - - 0 1', // a queen pinned on the file takes back along it
  'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3', // checkmated: no move at all
];

/** A property over random playouts (seed, length, how often a capture is preferred) that reach a position. */
function forPlayouts(check: (pos: Chess) => void) {
  return fc.property(
    fc.integer({ min: 0, max: 10_000_000 }),
    fc.integer({ min: 0, max: 160 }),
    fc.double({ min: 0, max: 0.9, noNaN: true }),
    (seed, plies, captureBias) => {
      const pos = playout(seed, plies, captureBias);
      if (pos !== undefined) check(pos);
    },
  );
}

describe('the capture look (capture-look.ts) against chessops', () => {
  it('gives every legal move the same net balance, and the side to move the same best win', () => {
    let moves = 0;
    fc.assert(
      forPlayouts((pos) => {
        expect(bestOneMoveWin(pos)).toBe(referenceBestWin(pos));
        // The position as a persona reads it (from its FEN) and as played (with its unchecked en passant).
        for (const read of [pos, boardFromFen(currentFen({ pos, repetitions: new Map(), plies: 0 })).pos]) {
          for (const move of legalMoves({ pos: read, repetitions: new Map(), plies: 0 })) {
            moves++;
            expect(netGain(read, move)).toBe(referenceNetGain(read, move));
          }
        }
      }),
      { numRuns: 400 },
    );
    expect(moves).toBeGreaterThan(5_000);
  });

  it('scores the moves of a turn read by fen-moves as materialGain and netGain do on chessops', () => {
    // The cautious and greedy personas score fen-moves' list: each move, in order, must score the same.
    const scored = (fen: string) => {
      const board = boardFromFen(fen);
      return legalMoves(board).map((m) => [
        toWireUci(board, m),
        materialGain(board.pos, m),
        netGain(board.pos, m),
      ]);
    };
    const onTurn = (fen: string) => {
      const turn = turnMoves(fen)!;
      return turn.moves.map((m) => [turn.uci(m), gainOfMove(turn, m), netGainOfMove(turn, m)]);
    };
    let moves = 0;
    fc.assert(
      forPlayouts((pos) => {
        const fen = currentFen({ pos, repetitions: new Map(), plies: 0 });
        const expected = scored(fen);
        moves += expected.length;
        expect(onTurn(fen), fen).toEqual(expected);
      }),
      { numRuns: 200 },
    );
    expect(moves).toBeGreaterThan(2_500);
    for (const fen of HAND_PICKED) expect(onTurn(fen), fen).toEqual(scored(fen));
  });

  it('agrees on hand-picked positions: pins, checks, en passant, promotions and castling', () => {
    for (const fen of HAND_PICKED) {
      const pos = boardFromFen(fen).pos;
      expect(bestOneMoveWin(pos), fen).toBe(referenceBestWin(pos));
      for (const move of legalMoves({ pos, repetitions: new Map(), plies: 0 }))
        expect(netGain(pos, move), `${fen} ${JSON.stringify(move)}`).toBe(referenceNetGain(pos, move));
    }
  });
});
