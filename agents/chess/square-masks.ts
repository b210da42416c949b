/**
 * Sets of squares as two 32-bit words (squares 0-31 in `lo`, 32-63 in `hi`), and the tables fen-moves.ts
 * lists moves from: each square's knight, king and pawn attacks and its ray in each direction, as masks. A
 * piece's targets are then a few word operations instead of a walk square by square; nothing here
 * allocates once the tables are built.
 */
import { DIRECTIONS, KING_STEPS, KNIGHT_STEPS, RAYS, WHITE } from './mail-board.js';

/** The low and high word of a square's own bit (one of them 0). */
export const bitLo = (square: number): number => (square < 32 ? 1 << square : 0);
export const bitHi = (square: number): number => (square < 32 ? 0 : 1 << (square - 32));

/** The lowest and the highest square of a set that is not empty. */
export const lowest = (lo: number, hi: number): number =>
  lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
export const highest = (lo: number, hi: number): number =>
  hi !== 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(lo);

/** Knight and king targets by square: `[square * 2]` the low word, `[square * 2 + 1]` the high one. */
export const KNIGHT_MASKS = leapMasks(KNIGHT_STEPS);
export const KING_MASKS = leapMasks(KING_STEPS);
/** The squares a pawn attacks, White's at `square * 2`, Black's at `128 + square * 2`. */
export const PAWN_MASKS = pawnMasks();
/**
 * Each square's ray in each of mail-board's DIRECTIONS, the square itself excluded, at `(square * 8 +
 * direction) * 2`. Directions 0, 2, 4 and 6 run to higher squares, the odd ones to lower squares.
 */
export const RAY_MASKS = rayMasks();

/** The offset of `side`'s pawn attacks in PAWN_MASKS. */
export const pawnMaskBase = (side: number): number => (side === WHITE ? 0 : 128);

/**
 * The squares a slider on `from` reaches in directions `first` up to `last` (exclusive) over the occupied
 * squares `occLo`/`occHi`, each ray up to and with its first occupied square. Left in SLIDE.
 */
export const SLIDE = { lo: 0, hi: 0 };

export function slide(from: number, first: number, last: number, occLo: number, occHi: number): void {
  let lo = 0;
  let hi = 0;
  for (let direction = first; direction < last; direction++) {
    const at = (from * 8 + direction) * 2;
    const rayLo = RAY_MASKS[at]!;
    const rayHi = RAY_MASKS[at + 1]!;
    const blockLo = rayLo & occLo;
    const blockHi = rayHi & occHi;
    if ((blockLo | blockHi) === 0) {
      lo |= rayLo;
      hi |= rayHi;
      continue;
    }
    const blocker = (direction & 1) === 0 ? lowest(blockLo, blockHi) : highest(blockLo, blockHi);
    const beyond = (blocker * 8 + direction) * 2;
    lo |= rayLo ^ RAY_MASKS[beyond]!;
    hi |= rayHi ^ RAY_MASKS[beyond + 1]!;
  }
  SLIDE.lo = lo;
  SLIDE.hi = hi;
}

/** The first occupied square of a ray, -1 for none: the lowest on a rising ray, the highest on a falling one. */
export function firstOnRay(from: number, direction: number, occLo: number, occHi: number): number {
  const at = (from * 8 + direction) * 2;
  const lo = RAY_MASKS[at]! & occLo;
  const hi = RAY_MASKS[at + 1]! & occHi;
  if ((lo | hi) === 0) return -1;
  return (direction & 1) === 0 ? lowest(lo, hi) : highest(lo, hi);
}

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

function rayMasks(): Int32Array {
  const masks = new Int32Array(64 * DIRECTIONS.length * 2);
  for (let square = 0; square < 64; square++)
    for (let direction = 0; direction < DIRECTIONS.length; direction++) {
      const start = (square * 8 + direction) * 7;
      for (let i = start; i < start + 7 && RAYS[i]! >= 0; i++)
        addTo(masks, (square * 8 + direction) * 2, RAYS[i]!);
    }
  return masks;
}

function addTo(masks: Int32Array, at: number, square: number): void {
  masks[at] = masks[at]! | bitLo(square);
  masks[at + 1] = masks[at + 1]! | bitHi(square);
}
