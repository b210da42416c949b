import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eloChange,
  expectedScore,
  kFactorFor,
  rateGame,
  roundHalfAwayFromZero,
  type Score,
} from '../../src/rules/chess/elo.js';
import { FIDE_K_FACTOR } from '../../src/rules/ruleset.js';

const params = { numRuns: 2000 };
const rating = fc.integer({ min: 100, max: 3000 });
const score = fc.constantFrom<Score>(0, 0.5, 1);
const k = fc.integer({ min: 1, max: 64 });

describe('elo properties', () => {
  it('pairwise sum law: with equal K the two changes cancel exactly', () => {
    fc.assert(
      fc.property(rating, rating, score, k, (a, b, s, kf) => {
        expect(eloChange(a, b, s, kf) + eloChange(b, a, (1 - s) as Score, kf)).toBe(0);
      }),
      params,
    );
  });

  it('the sum of all ratings never drifts over a random tournament', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(9), fc.nat(9), score), { maxLength: 300 }), (games) => {
        const ratings = Array.from({ length: 10 }, () => 1200);
        for (const [w, b, s] of games) {
          if (w === b) continue;
          const u = rateGame(
            { rating: ratings[w]!, gamesPlayed: 0, peakRating: 0 },
            { rating: ratings[b]!, gamesPlayed: 0, peakRating: 0 },
            s,
            { mode: 'fixed', k: 40 },
          );
          ratings[w]! += u.whiteDelta;
          ratings[b]! += u.blackDelta;
        }
        expect(ratings.reduce((x, y) => x + y, 0)).toBe(12_000);
        for (const r of ratings) expect(Number.isInteger(r)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('is monotonic in score and bounded by K', () => {
    fc.assert(
      fc.property(rating, rating, k, (a, b, kf) => {
        const loss = eloChange(a, b, 0, kf);
        const draw = eloChange(a, b, 0.5, kf);
        const win = eloChange(a, b, 1, kf);
        expect(loss).toBeLessThanOrEqual(draw);
        expect(draw).toBeLessThanOrEqual(win);
        for (const d of [loss, draw, win]) expect(Math.abs(d)).toBeLessThanOrEqual(kf);
        expect(win).toBeGreaterThanOrEqual(0);
        expect(loss).toBeLessThanOrEqual(0);
      }),
      params,
    );
  });

  it('a draw moves ratings less than a decisive result (SPEC: draws affect ratings less)', () => {
    fc.assert(
      fc.property(rating, rating, k, (a, b, kf) => {
        const draw = Math.abs(eloChange(a, b, 0.5, kf));
        expect(draw).toBeLessThanOrEqual(
          Math.max(Math.abs(eloChange(a, b, 1, kf)), Math.abs(eloChange(a, b, 0, kf))),
        );
      }),
      params,
    );
  });

  it('the expected score is in (0,1) and complementary', () => {
    fc.assert(
      fc.property(rating, rating, (a, b) => {
        const e = expectedScore(a, b);
        expect(e).toBeGreaterThan(0);
        expect(e).toBeLessThan(1);
        expect(e + expectedScore(b, a)).toBeCloseTo(1, 12);
      }),
      params,
    );
  });

  it('rounding is odd-symmetric', () => {
    fc.assert(
      fc.property(fc.double({ min: -100, max: 100, noNaN: true }), (x) => {
        expect(roundHalfAwayFromZero(-x) + roundHalfAwayFromZero(x)).toBe(0);
        expect(Object.is(roundHalfAwayFromZero(x), -0)).toBe(false);
        expect(Math.abs(roundHalfAwayFromZero(x) - x)).toBeLessThanOrEqual(0.5);
      }),
      params,
    );
  });
});

describe('elo examples', () => {
  it('K=40 between equals gives +20/-20 (the real service example)', () => {
    expect(eloChange(1200, 1200, 1, 40)).toBe(20);
    expect(eloChange(1200, 1200, 0, 40)).toBe(-20);
    expect(eloChange(1200, 1200, 0.5, 40)).toBe(0);
  });

  it('FIDE schedule: 40 provisional, 20 after 30 games, 10 from a 2400 peak', () => {
    expect(kFactorFor({ rating: 1500, gamesPlayed: 29, peakRating: 1500 }, FIDE_K_FACTOR)).toBe(40);
    expect(kFactorFor({ rating: 1500, gamesPlayed: 30, peakRating: 1500 }, FIDE_K_FACTOR)).toBe(20);
    expect(kFactorFor({ rating: 2350, gamesPlayed: 300, peakRating: 2400 }, FIDE_K_FACTOR)).toBe(10);
  });
});
