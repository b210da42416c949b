/**
 * Sliding pieces' reach over an occupied board, on the two 32-bit words of a chessops SquareSet (squares
 * 0-31 in `lo`, 32-63 in `hi`, a1 = 0). chessops' bishopAttacks and rookAttacks compute the same squares
 * by the hyperbola-quintessence trick, which makes some twenty SquareSet objects a call: over a smoke run
 * that was the largest allocation of the platform's chess (a fifth of all bytes allocated). Here each
 * direction's ray is a table entry and its first occupied square a clz32, so nothing is allocated.
 * test/property/slides.test.ts holds every answer equal to chessops' on random boards.
 */
import { SquareSet } from 'chessops/squareSet';

/** (file, rank) steps: the rook's four directions, then the bishop's four. */
const STEPS = [
  [0, 1],
  [1, 0],
  [0, -1],
  [-1, 0],
  [1, 1],
  [-1, 1],
  [1, -1],
  [-1, -1],
] as const;
const ROOK_FIRST = 0;
const BISHOP_FIRST = 4;
const DIRECTIONS = STEPS.length;

/** Whether a direction runs to higher square numbers (its nearest blocker is then its lowest square). */
const RISING = STEPS.map(([file, rank]) => rank > 0 || (rank === 0 && file > 0));

/** Each square's ray in each direction, the square itself excluded, at `(square * 8 + direction) * 2`. */
const RAYS = rayTable();

/** Where `reach` leaves the squares it found: no object is made per call. */
const REACH = { lo: 0, hi: 0 };

/** The squares a rook, bishop or queen on `from` attacks or defends over `occupied` (chessops' attacks). */
export function sliderAttacks(
  role: 'rook' | 'bishop' | 'queen',
  from: number,
  occupied: SquareSet,
): SquareSet {
  const first = role === 'bishop' ? BISHOP_FIRST : ROOK_FIRST;
  const last = role === 'rook' ? BISHOP_FIRST : DIRECTIONS;
  reach(from, first, last, occupied.lo, occupied.hi);
  return new SquareSet(REACH.lo, REACH.hi);
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
  reach(square, first, first + 4, occupied.lo, occupied.hi);
  return ((REACH.lo & lo) | (REACH.hi & hi)) !== 0;
}

/** The union of the rays from `from` in directions first..last-1, each up to and with its first occupied square. */
function reach(from: number, first: number, last: number, occLo: number, occHi: number): void {
  let lo = 0;
  let hi = 0;
  for (let direction = first; direction < last; direction++) {
    const at = (from * DIRECTIONS + direction) * 2;
    const rayLo = RAYS[at]!;
    const rayHi = RAYS[at + 1]!;
    const blockLo = rayLo & occLo;
    const blockHi = rayHi & occHi;
    if ((blockLo | blockHi) === 0) {
      lo |= rayLo;
      hi |= rayHi;
      continue;
    }
    // The ray beyond its first blocker, taken away: the blocker itself stays (it is attacked or defended).
    const blocker = RISING[direction] ? lowest(blockLo, blockHi) : highest(blockLo, blockHi);
    const beyond = (blocker * DIRECTIONS + direction) * 2;
    lo |= rayLo ^ RAYS[beyond]!;
    hi |= rayHi ^ RAYS[beyond + 1]!;
  }
  REACH.lo = lo;
  REACH.hi = hi;
}

function lowest(lo: number, hi: number): number {
  return lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
}

function highest(lo: number, hi: number): number {
  return hi !== 0 ? 63 - Math.clz32(hi) : 31 - Math.clz32(lo);
}

function rayTable(): Int32Array {
  const rays = new Int32Array(64 * DIRECTIONS * 2);
  for (let square = 0; square < 64; square++)
    STEPS.forEach(([fileStep, rankStep], direction) => {
      const at = (square * DIRECTIONS + direction) * 2;
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
