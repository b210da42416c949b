import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { studentTCdf, studentTQuantile } from '../../src/rules/stats/student-t.js';

describe('Student t computed, not tabled', () => {
  it('t(0.975) matches published table values: 1 -> 12.706, 10 -> 2.228, 30 -> 2.042, 121 -> 1.980, 1000 -> 1.962', () => {
    const known: Array<[number, number]> = [
      [1, 12.7062],
      [2, 4.3027],
      [10, 2.2281],
      [30, 2.0423],
      [60, 2.0003],
      [121, 1.9798],
      [1000, 1.9623],
    ];
    for (const [df, t] of known) expect(studentTQuantile(0.975, df)).toBeCloseTo(t, 4);
    // Past every table row it stays wider than the normal 1.96, approaching it.
    expect(studentTQuantile(0.975, 1e6)).toBeGreaterThan(1.959963);
    expect(studentTQuantile(0.975, 1e6)).toBeCloseTo(1.959966, 5);
  });

  it('the cdf has closed forms at df 1 (Cauchy) and df 2', () => {
    fc.assert(
      fc.property(fc.double({ min: -50, max: 50, noNaN: true }), (t) => {
        expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
        expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
      }),
    );
  });

  it('the quantile inverts the cdf, is odd, and falls as df grows', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.001, max: 0.999, noNaN: true }),
        fc.double({ min: 0.5, max: 500, noNaN: true }),
        (p, df) => {
          const t = studentTQuantile(p, df);
          expect(studentTCdf(t, df)).toBeCloseTo(p, 10);
          expect(studentTQuantile(1 - p, df)).toBeCloseTo(-t, 8);
          if (p > 0.5) expect(studentTQuantile(p, df + 1)).toBeLessThan(t);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects a p outside (0, 1) or a df that is not positive', () => {
    expect(() => studentTQuantile(1, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0, 5)).toThrow(RangeError);
    expect(() => studentTQuantile(0.5, 0)).toThrow(RangeError);
    expect(() => studentTCdf(1, Number.NaN)).toThrow(RangeError);
  });
});
