import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excludesZero, pairedStats, round6, tCritical } from '../../src/compare/paired.js';

const runs = { numRuns: 300 };

describe('paired differences over seeds', () => {
  it('matches a hand-computed example: 4 seeds, differences 2, 3, 1, 3', () => {
    // mean 2.25; squared deviations 0.0625 + 0.5625 + 1.5625 + 0.5625 = 2.75, sd = sqrt(2.75 / 3) = 0.957427;
    // se = sd / sqrt(4) = 0.478714; t(0.975, 3 df) = 3.182446, margin 1.523480.
    const stats = pairedStats([10, 12, 9, 11], [12, 15, 10, 14]);
    expect(stats).toEqual({
      n: 4,
      mean_a: 10.5,
      mean_b: 12.75,
      mean_diff: 2.25,
      sd_diff: 0.957427,
      low: 0.72652,
      high: 3.77348,
    });
    expect(excludesZero(stats)).toBe(true);
  });

  it('computes t(0.975) for the exact df, wider than 1.96 past 120 degrees of freedom', () => {
    const rounded = (df: number) => Number(tCritical(df).toFixed(3));
    expect([1, 2, 10, 29, 30, 40, 60, 120].map(rounded)).toEqual([
      12.706, 4.303, 2.228, 2.045, 2.042, 2.021, 2.0, 1.98,
    ]);
    expect(rounded(121)).toBe(1.98);
    expect(tCritical(10_000)).toBeGreaterThan(1.96);
    expect(() => tCritical(0)).toThrow(RangeError);
  });

  it('has no interval with one seed, and refuses samples of different lengths', () => {
    expect(pairedStats([3], [5])).toEqual({
      n: 1,
      mean_a: 3,
      mean_b: 5,
      mean_diff: 2,
      sd_diff: 0,
      low: null,
      high: null,
    });
    expect(excludesZero(pairedStats([3], [5]))).toBe(false);
    expect(() => pairedStats([1, 2], [1])).toThrow(RangeError);
    expect(() => pairedStats([], [])).toThrow(RangeError);
  });

  const samples = fc
    .integer({ min: 2, max: 60 })
    .chain((n) =>
      fc.tuple(
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: n, maxLength: n }),
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: n, maxLength: n }),
      ),
    );
  const realSamples = fc
    .integer({ min: 2, max: 40 })
    .chain((n) =>
      fc.tuple(
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }),
        fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: n, maxLength: n }),
      ),
    );

  it('puts the mean difference inside its interval', () => {
    fc.assert(
      fc.property(fc.oneof(samples, realSamples), ([a, b]) => {
        const s = pairedStats(a, b);
        expect(s.low!).toBeLessThanOrEqual(s.mean_diff);
        expect(s.mean_diff).toBeLessThanOrEqual(s.high!);
      }),
      runs,
    );
  });

  it('negates every figure when the sides swap', () => {
    fc.assert(
      fc.property(fc.oneof(samples, realSamples), ([a, b]) => {
        const ab = pairedStats(a, b);
        const ba = pairedStats(b, a);
        expect(ba).toEqual({
          n: ab.n,
          mean_a: ab.mean_b,
          mean_b: ab.mean_a,
          mean_diff: round6(-ab.mean_diff),
          sd_diff: ab.sd_diff,
          low: round6(-ab.high!),
          high: round6(-ab.low!),
        });
      }),
      runs,
    );
  });

  it('gives 0 ± 0 for identical sides, and the shift with a zero-width interval for a constant shift', () => {
    fc.assert(
      fc.property(samples, fc.integer({ min: -1000, max: 1000 }), ([a], shift) => {
        expect(pairedStats(a, a)).toMatchObject({ mean_diff: 0, sd_diff: 0, low: 0, high: 0 });
        expect(excludesZero(pairedStats(a, a))).toBe(false);
        expect(
          pairedStats(
            a,
            a.map((x) => x + shift),
          ),
        ).toMatchObject({ mean_diff: shift, sd_diff: 0, low: shift, high: shift });
      }),
      runs,
    );
  });
});
