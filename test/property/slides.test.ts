import { bishopAttacks, queenAttacks, rookAttacks } from 'chessops/attacks';
import { SquareSet } from 'chessops/squareSet';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sliderAttacks, slidesOnto } from '../../src/rules/chess/slides.js';

/** A board's occupied squares: sparse, dense and anything between (each square in with the drawn odds). */
const occupiedArb = fc
  .tuple(
    fc.integer({ min: 0, max: 100 }),
    fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 64, maxLength: 64 }),
  )
  .map(([density, draws]) =>
    draws.reduce((set, draw, square) => (draw < density ? set.with(square) : set), SquareSet.empty()),
  );
const squareArb = fc.integer({ min: 0, max: 63 });
const CHESSOPS = { rook: rookAttacks, bishop: bishopAttacks, queen: queenAttacks } as const;

describe('slides.ts: sliders reach the squares chessops says', () => {
  it('rook, bishop and queen attacks equal chessops on random boards', () => {
    fc.assert(
      fc.property(
        squareArb,
        occupiedArb,
        fc.constantFrom('rook', 'bishop', 'queen' as const),
        (square, occupied, role) => {
          const ours = sliderAttacks(role, square, occupied);
          const theirs = CHESSOPS[role](square, occupied);
          expect([ours.lo, ours.hi]).toEqual([theirs.lo, theirs.hi]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('slidesOnto tells whether one of the given sliders reaches the square, as chessops attacks do', () => {
    fc.assert(
      fc.property(
        squareArb,
        occupiedArb,
        occupiedArb,
        fc.boolean(),
        (square, occupied, sliders, straight) => {
          const reach = (straight ? rookAttacks : bishopAttacks)(square, occupied);
          const expected = reach.intersects(sliders);
          expect(slidesOnto(square, straight, occupied, sliders.lo, sliders.hi)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a slider on an empty board reaches its whole lines, and a ring of pieces stops it at the ring', () => {
    expect(sliderAttacks('rook', 0, SquareSet.empty()).size()).toBe(14);
    expect(sliderAttacks('bishop', 27, SquareSet.empty()).size()).toBe(13);
    expect(sliderAttacks('queen', 63, SquareSet.empty()).size()).toBe(21);
    const ring = SquareSet.empty().with(18).with(19).with(20).with(26).with(28).with(34).with(35).with(36);
    expect([...sliderAttacks('queen', 27, ring)].sort((a, b) => a - b)).toEqual([...ring]);
  });
});
