import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../src/kernel/rng.js';
import {
  apportion,
  defaultMedianMs,
  drawPeriodMs,
  periodRange,
  type HeartbeatPeriodSpec,
} from '../../src/sim/scenario/population.js';

const FC = { numRuns: 300 };

/** Positive shares that sum to 1 (within float error), from positive integer weights. */
const sharesArb = fc
  .array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 12 })
  .map((weights) => {
    const sum = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => w / sum);
  });

/** min <= max, in ms, from 1 s to 1 h. */
const boundsArb = fc
  .tuple(fc.integer({ min: 1000, max: 3_600_000 }), fc.integer({ min: 0, max: 3_600_000 }))
  .map(([min, extra]) => ({ min, max: Math.min(min + extra, 3_600_000) }));

describe('apportion (largest remainder)', () => {
  it('counts sum to the total and each is within one of its quota', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000 }), sharesArb, (total, shares) => {
        const counts = apportion(total, shares);
        expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
        counts.forEach((n, i) => {
          expect(Number.isInteger(n) && n >= 0).toBe(true);
          expect(Math.abs(n - total * shares[i]!)).toBeLessThan(1);
        });
      }),
      FC,
    );
  });

  it('gives exact quotas exactly, and leftover seats to the largest remainders, ties to the earlier share', () => {
    expect(apportion(5000, [0.5, 0.2, 0.2, 0.1])).toEqual([2500, 1000, 1000, 500]);
    expect(apportion(10, [0.25, 0.25, 0.25, 0.25])).toEqual([3, 3, 2, 2]);
    expect(apportion(7, [0.45, 0.35, 0.2])).toEqual([3, 3, 1]); // quotas 3.15, 2.45, 1.4: the .45 wins the seat
    expect(apportion(3, [1 / 3, 1 / 3, 1 / 3])).toEqual([1, 1, 1]);
  });

  it('takes shares that sum to 1 only within float tolerance', () => {
    expect(apportion(100_000, [0.1, 0.2, 0.3, 0.4 + 1e-7]).reduce((a, b) => a + b, 0)).toBe(100_000);
    expect(apportion(100_000, [0.1, 0.2, 0.3, 0.4 - 1e-7]).reduce((a, b) => a + b, 0)).toBe(100_000);
  });
});

describe('per-agent heartbeat periods', () => {
  const specArb = fc.oneof(fc.constant<'uniform'>('uniform'), fc.constant<'lognormal'>('lognormal'));

  it("stay within [min, max], and an agent's jittered range stays within them too and holds its period", () => {
    fc.assert(
      fc.property(
        specArb,
        boundsArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.string(),
        (distribution, { min, max }, at, seed) => {
          const medianMs = Math.round(min + at * (max - min));
          const period = drawPeriodMs({ distribution, medianMs }, min, max, new Rng(seed));
          expect(Number.isSafeInteger(period)).toBe(true);
          expect(period).toBeGreaterThanOrEqual(min);
          expect(period).toBeLessThanOrEqual(max);
          const range = periodRange(period, min, max);
          expect(range.minMs).toBeGreaterThanOrEqual(min);
          expect(range.maxMs).toBeLessThanOrEqual(max);
          expect(range.minMs).toBeLessThanOrEqual(period);
          expect(range.maxMs).toBeGreaterThanOrEqual(period);
        },
      ),
      FC,
    );
  });

  it('are seeded: the same stream gives the same periods, another stream other periods', () => {
    const spec: HeartbeatPeriodSpec = { distribution: 'lognormal', medianMs: 45_000 };
    const draw = (seed: string) =>
      Array.from(
        { length: 50 },
        (
          (rng) => () =>
            drawPeriodMs(spec, 10_000, 600_000, rng)
        )(new Rng(seed)),
      );
    expect(draw('a')).toEqual(draw('a'));
    expect(draw('a')).not.toEqual(draw('b'));
  });

  it('lognormal periods centre on the median with a long right tail; uniform ones spread evenly', () => {
    const rng = new Rng('shape');
    const sorted = (spec: HeartbeatPeriodSpec, min: number, max: number) =>
      Array.from({ length: 4000 }, () => drawPeriodMs(spec, min, max, rng)).sort((a, b) => a - b);
    const logn = sorted({ distribution: 'lognormal', medianMs: 40_000 }, 10_000, 600_000);
    expect(logn[2000]! / 40_000).toBeGreaterThan(0.93);
    expect(logn[2000]! / 40_000).toBeLessThan(1.07);
    const mean = logn.reduce((a, b) => a + b, 0) / logn.length;
    expect(mean).toBeGreaterThan(logn[2000]!); // skewed right: the mean lies above the median
    expect(logn[3800]!).toBeGreaterThan(150_000); // the 95th percentile: about 270 s with these bounds
    expect(logn[200]!).toBeLessThan(20_000); // the 5th: about 18 s
    const uni = sorted({ distribution: 'uniform', medianMs: 0 }, 30_000, 60_000);
    expect(Math.abs(uni[1000]! - 37_500)).toBeLessThan(1500);
    expect(Math.abs(uni[3000]! - 52_500)).toBeLessThan(1500);
  });

  it('the default lognormal median is the geometric mean of the bounds', () => {
    expect(defaultMedianMs(10_000, 1_000_000)).toBe(100_000);
  });
});
