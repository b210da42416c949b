/**
 * Sets of squares as two 32-bit words (squares 0-31 in `lo`, 32-63 in `hi`), and the tables fen-moves.ts
 * lists moves from: each square's knight, king and pawn attacks, and (from slides.ts) its ray in each
 * direction, as masks. A piece's targets are then a few word operations instead of a walk square by square;
 * nothing here allocates once the tables are built.
 */
import { KING_STEPS, KNIGHT_STEPS, WHITE } from './mail-board.js';

// The rays and the sliding over them are the platform's own (src/rules/chess/slides.ts), in the directions
// mail-board.ts walks: one table and one slide for both sides of a move.
export { firstOnRay, RAY_MASKS, SLIDE, slide } from '../../src/rules/chess/slides.js';

/** The low and high word of a square's own bit (one of them 0). */
export const bitLo = (square: number): number => (square < 32 ? 1 << square : 0);
export const bitHi = (square: number): number => (square < 32 ? 0 : 1 << (square - 32));

/** Knight and king targets by square: `[square * 2]` the low word, `[square * 2 + 1]` the high one. */
export const KNIGHT_MASKS = leapMasks(KNIGHT_STEPS);
export const KING_MASKS = leapMasks(KING_STEPS);
/** The squares a pawn attacks, White's at `square * 2`, Black's at `128 + square * 2`. */
export const PAWN_MASKS = pawnMasks();
/** The offset of `side`'s pawn attacks in PAWN_MASKS. */
export const pawnMaskBase = (side: number): number => (side === WHITE ? 0 : 128);

function leapMasks(steps: Int8Array): Int32Array {
  const masks = new Int32Array(128);
  for (let square = 0; square < 64; square++)
    for (let i = square * 8; i < square * 8 + 8 && steps[i]! >= 0; i++) addTo(masks, square * 2, steps[i]!);
  return masks;
}

function pawnMasks(): Int32Array {
  const masks = new Int32Array(256);
  for (let square = 0; square < 64; square++)
    for (const [base, forward] of [
      [0, 1],
      [128, -1],
    ] as const) {
      const rank = (square >> 3) + forward;
      if (rank < 0 || rank > 7) continue;
      if ((square & 7) > 0) addTo(masks, base + square * 2, rank * 8 + (square & 7) - 1);
      if ((square & 7) < 7) addTo(masks, base + square * 2, rank * 8 + (square & 7) + 1);
    }
  return masks;
}

function addTo(masks: Int32Array, at: number, square: number): void {
  masks[at] = masks[at]! | bitLo(square);
  masks[at + 1] = masks[at + 1]! | bitHi(square);
}
