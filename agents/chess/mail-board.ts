/**
 * A chess position as 64 signed bytes, and the attack questions asked of it, for the chess personas' static
 * looks (capture-look.ts) and the random persona's moves (fen-moves.ts). Nothing here allocates once the
 * tables are built: chessops answers each attack question with new square sets, which is what a crowd's
 * chess players allocated most.
 */
import type { Role } from 'chessops';
import type { Chess } from 'chessops/chess';
import { DIRECTIONS } from '../../src/rules/chess/slides.js';

/** A cell holds 0 (empty) or a piece code, positive for White and negative for Black. */
export const ROLES: readonly Role[] = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
export const PAWN = 1;
export const KNIGHT = 2;
export const BISHOP = 3;
export const ROOK = 4;
export const QUEEN = 5;
export const KING = 6;
export const CODE: Readonly<Record<Role, number>> = {
  pawn: PAWN,
  knight: KNIGHT,
  bishop: BISHOP,
  rook: ROOK,
  queen: QUEEN,
  king: KING,
};
/** The side to move, and the sign of its pieces. */
export const WHITE = 1;
export const BLACK = -1;

/** A position: cells, the side to move (WHITE or BLACK), en passant, both kings. */
export class MailBoard {
  readonly cells = new Int8Array(64);
  turn = WHITE;
  /** The en-passant target square, -1 for none. */
  ep = -1;
  whiteKing = 0;
  blackKing = 0;

  kingOf(side: number): number {
    return side === WHITE ? this.whiteKing : this.blackKing;
  }

  setKing(side: number, square: number): void {
    if (side === WHITE) this.whiteKing = square;
    else this.blackKing = square;
  }

  copy(from: MailBoard): void {
    this.cells.set(from.cells);
    this.turn = from.turn;
    this.ep = from.ep;
    this.whiteKing = from.whiteKing;
    this.blackKing = from.blackKing;
  }
}

export function sign(piece: number): number {
  return piece > 0 ? WHITE : BLACK;
}

// --- loading ---------------------------------------------------------------------------------------------

/** Fills `b` from chessops' bitboards, one word of each set at a time. */
export function loadPosition(b: MailBoard, pos: Chess): void {
  const board = pos.board;
  b.cells.fill(0);
  for (const role of ROLES) {
    const set = board[role];
    loadWord(b, set.lo & board.white.lo, 0, CODE[role]);
    loadWord(b, set.hi & board.white.hi, 32, CODE[role]);
    loadWord(b, set.lo & board.black.lo, 0, -CODE[role]);
    loadWord(b, set.hi & board.black.hi, 32, -CODE[role]);
  }
  b.turn = pos.turn === 'white' ? WHITE : BLACK;
  b.ep = pos.epSquare ?? -1;
}

function loadWord(b: MailBoard, bits: number, base: 0 | 32, piece: number): void {
  for (let rest = bits; rest !== 0; rest &= rest - 1) {
    const square = base + 31 - Math.clz32(rest & -rest);
    b.cells[square] = piece;
    if (piece === KING) b.whiteKing = square;
    else if (piece === -KING) b.blackKing = square;
  }
}

// --- attacks ---------------------------------------------------------------------------------------------

/** Squares a knight or a king reaches from each square (up to 8, -1 after the last). */
export const KNIGHT_STEPS = leapTable([
  [1, 2],
  [2, 1],
  [2, -1],
  [1, -2],
  [-1, -2],
  [-2, -1],
  [-2, 1],
  [-1, 2],
]);
export const KING_STEPS = leapTable([
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
]);
/** Each square's ray in each of slides.ts's DIRECTIONS (the rook's, then the bishop's), nearest first (-1 after the last). */
export const RAYS = rayTable();

/** Whether any piece of `by` attacks `square`. */
export function isAttacked(cells: Int8Array, square: number, by: number): boolean {
  return attackersOf(cells, square, by, null) > 0;
}

/**
 * The pieces of `by` that attack `square`, written to `out` (or only counted up to the first when `out` is
 * null); returns how many.
 */
export function attackersOf(cells: Int8Array, square: number, by: number, out: Int8Array | null): number {
  let count = pawnAttackersOf(cells, square, by, out, 0);
  if (out === null && count > 0) return count;
  count = leapersOf(cells, KNIGHT_STEPS, square, KNIGHT * by, out, count);
  if (out === null && count > 0) return count;
  count = leapersOf(cells, KING_STEPS, square, KING * by, out, count);
  for (let direction = 0; direction < 8 && (out !== null || count === 0); direction++) {
    const from = firstPieceOnRay(cells, square, direction);
    if (from < 0 || sign(cells[from]!) !== by) continue;
    const role = Math.abs(cells[from]!);
    const slides = role === QUEEN || role === (direction < 4 ? ROOK : BISHOP);
    if (slides) count = record(out, count, from);
  }
  return count;
}

/** The pawns of `by` that attack `square`: White's stand below it, Black's above. */
export function pawnAttackersOf(
  cells: Int8Array,
  square: number,
  by: number,
  out: Int8Array | null,
  count: number,
): number {
  const rank = (square >> 3) - by;
  if (rank < 0 || rank > 7) return count;
  const file = square & 7;
  if (file > 0 && cells[rank * 8 + file - 1] === PAWN * by) count = record(out, count, rank * 8 + file - 1);
  if (file < 7 && cells[rank * 8 + file + 1] === PAWN * by) count = record(out, count, rank * 8 + file + 1);
  return count;
}

function leapersOf(
  cells: Int8Array,
  steps: Int8Array,
  square: number,
  piece: number,
  out: Int8Array | null,
  count: number,
): number {
  for (let i = square * 8; i < square * 8 + 8; i++) {
    const from = steps[i]!;
    if (from < 0) break;
    if (cells[from] === piece) count = record(out, count, from);
  }
  return count;
}

/** The first occupied square from `square` in `direction`, -1 when the ray reaches the edge first. */
export function firstPieceOnRay(cells: Int8Array, square: number, direction: number): number {
  const start = (square * 8 + direction) * 7;
  for (let i = start; i < start + 7; i++) {
    const at = RAYS[i]!;
    if (at < 0 || cells[at] !== 0) return at;
  }
  return -1;
}

function record(out: Int8Array | null, count: number, square: number): number {
  if (out !== null) out[count] = square;
  return count + 1;
}

function leapTable(steps: ReadonlyArray<readonly [number, number]>): Int8Array {
  const table = new Int8Array(64 * 8).fill(-1);
  for (let square = 0; square < 64; square++) {
    let at = square * 8;
    for (const [df, dr] of steps) {
      const to = offBy(square, df, dr, 1);
      if (to >= 0) table[at++] = to;
    }
  }
  return table;
}

function rayTable(): Int8Array {
  const table = new Int8Array(64 * 8 * 7).fill(-1);
  for (let square = 0; square < 64; square++)
    for (const [direction, [df, dr]] of DIRECTIONS.entries())
      for (let distance = 1; distance <= 7; distance++)
        table[(square * 8 + direction) * 7 + distance - 1] = offBy(square, df, dr, distance);
  return table;
}

/** The square `distance` steps of (df, dr) away, -1 when off the board. */
export function offBy(square: number, df: number, dr: number, distance: number): number {
  const file = (square & 7) + df * distance;
  const rank = (square >> 3) + dr * distance;
  return file >= 0 && file < 8 && rank >= 0 && rank < 8 ? rank * 8 + file : -1;
}
