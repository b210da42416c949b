/**
 * Sliding pieces' reach over an occupied board, on the two 32-bit words of a chessops SquareSet (squares
 * 0-31 in `lo`, 32-63 in `hi`, a1 = 0). chessops' bishopAttacks and rookAttacks compute the same squares
 * by the hyperbola-quintessence trick, which makes some twenty SquareSet objects a call: over a smoke run
 * that was the largest allocation of the platform's chess (a fifth of all bytes allocated). Here each
 * direction's ray is a table entry and its first occupied square a clz32, so nothing is allocated. The
 * agents' move lists (agents/chess/fen-moves.ts) slide on the same tables. test/property/slides.test.ts
 * holds every answer equal to chessops' on random boards.
 */
import { SquareSet } from 'chessops/squareSet';

/**
 * The sliding directions as (file, rank) steps: the rook's four, then the bishop's four. Even ones run to
 * higher square numbers and odd ones to lower, so a ray's nearest piece is its lowest or highest square.
 * The agents' mailbox board (agents/chess/mail-board.ts) walks the same directions in the same order.
 */
export const DIRECTIONS: ReadonlyArray<readonly [file: number, rank: number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
];
const ROOK_FIRST = 0;
const BISHOP_FIRST = 4;
const DIRECTION_COUNT = DIRECTIONS.length;

/** Each square's ray in each direction, the square itself excluded, at `(square * 8 + direction) * 2`. */
export const RAY_MASKS = rayTable();

/** Where `slide` leaves the squares it found: no object is made per call. */
export const SLIDE = { lo: 0, hi: 0 };

/** The squares a rook, bishop or queen on `from` attacks or defends over `occupied` (chessops' attacks). */
export function sliderAttacks(
  role: 'rook' | 'bishop' | 'queen',
  from: number,
  occupied: SquareSet,
): SquareSet {
  const first = role === 'bishop' ? BISHOP_FIRST : ROOK_FIRST;
  const last = role === 'rook' ? BISHOP_FIRST : DIRECTION_COUNT;
  slide(from, first, last, occupied.lo, occupied.hi);
  return new SquareSet(SLIDE.lo, SLIDE.hi);
}

/**
 * Whether a rook-like (`straight`) or bishop-like slider among the squares `lo`/`hi` reaches `square` over
 * `occupied`: what isAttacked asks, without a set made.
 */
export function slidesOnto(
  square: number,
  straight: boolean,
  occupied: SquareSet,
  lo: number,
  hi: number,
): boolean {
  const first = straight ? ROOK_FIRST : BISHOP_FIRST;
  slide(square, first, first + 4, occupied.lo, occupied.hi);
  return ((SLIDE.lo & lo) | (SLIDE.hi & hi)) !== 0;
}

/**
 * The union of the rays from `from` in directions `first` up to `last` (exclusive) over the occupied squares
 * `occLo`/`occHi`, each ray up to and with its first occupied square (attacked or defended). Left in SLIDE.
 */
export function slide(from: number, first: number, last: number, occLo: number, occHi: number): void {
  let lo = 0;
  let hi = 0;
  for (let direction = first; direction < last; direction++) {
    const at = (from * DIRECTION_COUNT + direction) * 2;
    const rayLo = RAY_MASKS[at]!;
    const rayHi = RAY_MASKS[at + 1]!;
    const blockLo = rayLo & occLo;
    const blockHi = rayHi & occHi;
    if ((blockLo | blockHi) === 0) {
      lo |= rayLo;
      hi |= rayHi;
      continue;
    }
    // The ray beyond its first blocker, taken away: the blocker itself stays.
    const blocker = (direction & 1) === 0 ? lowest(blockLo, blockHi) : highest(blockLo, blockHi);
    const beyond = (blocker * DIRECTION_COUNT + direction) * 2;
    lo |= rayLo ^ RAY_MASKS[beyond]!;
    hi |= rayHi ^ RAY_MASKS[beyond + 1]!;
  }
  SLIDE.lo = lo;
  SLIDE.hi = hi;
}

/** The first occupied square of a ray, -1 for none: the lowest on a rising ray, the highest on a falling one. */
export function firstOnRay(from: number, direction: number, occLo: number, occHi: number): number {
  const at = (from * DIRECTION_COUNT + direction) * 2;
  const lo = RAY_MASKS[at]! & occLo;
  const hi = RAY_MASKS[at + 1]! & occHi;
  if ((lo | hi) === 0) return -1;
  return (direction & 1) === 0 ? lowest(lo, hi) : highest(lo, hi);
}

/** The lowest and the highest square of a set that is not empty. */
function lowest(lo: number, hi: number): number {
  return lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
}

function highest(lo: number, hi: number): number {
  return hi !== 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(lo);
}

function rayTable(): Int32Array {
  const rays = new Int32Array(64 * DIRECTION_COUNT * 2);
  for (let square = 0; square < 64; square++)
    DIRECTIONS.forEach(([fileStep, rankStep], direction) => {
      const at = (square * DIRECTION_COUNT + direction) * 2;
      let file = (square & 7) + fileStep;
      let rank = (square >> 3) + rankStep;
      for (; file >= 0 && file < 8 && rank >= 0 && rank < 8; file += fileStep, rank += rankStep) {
        const on = rank * 8 + file;
        if (on < 32) rays[at] = rays[at]! | (1 << on);
        else rays[at + 1] = rays[at + 1]! | (1 << (on - 32));
      }
    });
  return rays;
}
