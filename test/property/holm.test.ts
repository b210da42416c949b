import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { halfWidth, minimumDetectable, pairedTest, seedsNeeded } from '../../src/compare/family.js';
import { holm } from '../../src/rules/stats/holm.js';

// drawn from a few values as well as from the whole interval, so ties (equal rows) occur
const pValues = fc.array(
  fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.001, 0.01, 0.02, 1)),
  { minLength: 1, maxLength: 40 },
);
const alpha = fc.double({ min: 0.001, max: 0.2, noNaN: true });

/** mulberry32: a small seeded generator, so the simulation draws the same numbers on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw (Box–Muller). */
function normal(random: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}

/**
 * Share of simulated null compares (every metric's true difference 0) in which Holm flags anything:
 * `metrics` paired t tests over `seeds` seeds, the metrics sharing a common per-seed component with weight
 * `shared` (0 independent, near 1 strongly dependent, as games, moves and endings are).
 */
function familyWiseErrorRate(trials: number, metrics: number, seeds: number, shared: number): number {
  const random = generator(20261126);
  let anyFlagged = 0;
  for (let trial = 0; trial < trials; trial++) {
    const common = Array.from({ length: seeds }, () => normal(random));
    const ps = Array.from({ length: metrics }, () => {
      const diffs = common.map((c) => shared * c + Math.sqrt(1 - shared * shared) * normal(random));
      return pairedTest(diffs).p!;
    });
    if (holm(ps, 0.05).rejected.some(Boolean)) anyFlagged++;
  }
  return anyFlagged / trials;
}

describe('Holm–Bonferroni', () => {
  it('adjusted p-values are never below the raw ones, at most 1, and ordered as the raw ones are', () => {
    fc.assert(
      fc.property(pValues, alpha, (ps, a) => {
        const { adjusted } = holm(ps, a);
        ps.forEach((p, i) => {
          expect(adjusted[i]!).toBeGreaterThanOrEqual(p);
          expect(adjusted[i]!).toBeLessThanOrEqual(1);
          ps.forEach((q, j) => {
            if (p <= q) expect(adjusted[i]!).toBeLessThanOrEqual(adjusted[j]!);
          });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('flags exactly the adjusted p <= alpha, at least every Bonferroni rejection, and each interval level agrees with its flag', () => {
    fc.assert(
      fc.property(pValues, alpha, (ps, a) => {
        const { adjusted, rejected, level } = holm(ps, a);
        const m = ps.length;
        ps.forEach((p, i) => {
          expect(rejected[i]).toBe(adjusted[i]! <= a);
          if (p * m <= a) expect(rejected[i]).toBe(true);
          // the row's interval (drawn at `level`) leaves 0 out exactly when the row is flagged
          if (rejected[i]) expect(p).toBeLessThanOrEqual(level[i]!);
          else expect(p).toBeGreaterThan(level[i]!);
          expect(level[i]!).toBeGreaterThanOrEqual(a / m);
          expect(level[i]!).toBeLessThanOrEqual(a);
          // the same p, the same verdict and interval level
          ps.forEach((q, j) => {
            if (p === q)
              expect([adjusted[j], rejected[j], level[j]]).toEqual([adjusted[i], rejected[i], level[i]]);
          });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('reproduces a worked example: p = 0.01, 0.04, 0.03, 0.005 at alpha 0.05', () => {
    const { adjusted, rejected } = holm([0.01, 0.04, 0.03, 0.005], 0.05);
    // sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.06 (the last lifted to the running max)
    expect(adjusted.map((p) => Number(p.toFixed(6)))).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(rejected).toEqual([true, false, false, true]);
  });

  it('keeps the family-wise error at or under 5% for null compares, independent and strongly dependent metrics (2000 simulated each)', () => {
    // 3 binomial standard errors of 2000 trials at 5% is 0.0146: a rate above 0.065 is not sampling noise.
    const independent = familyWiseErrorRate(2000, 12, 8, 0);
    const dependent = familyWiseErrorRate(2000, 12, 8, 0.9);
    expect(independent).toBeLessThanOrEqual(0.065);
    expect(dependent).toBeLessThanOrEqual(0.065);
    // and it is not vacuous: independent tests spend nearly the whole 5% (1 - (1 - 0.05/12)^12 = 4.9%)
    expect(independent).toBeGreaterThan(0.03);
    // an uncorrected 95% per metric (what compare did before) errs in far more of the same compares
    const random = generator(7);
    let uncorrected = 0;
    for (let trial = 0; trial < 500; trial++) {
      const ps = Array.from(
        { length: 12 },
        () => pairedTest(Array.from({ length: 8 }, () => normal(random))).p!,
      );
      if (ps.some((p) => p <= 0.05)) uncorrected++;
    }
    expect(uncorrected / 500).toBeGreaterThan(0.3);
  });
});

describe('the paired t test and its power', () => {
  it('gives the textbook p for a known sample and the matching interval', () => {
    // differences 1..5: mean 3, sd 1.5811, t = 4.2426 on 4 df, two-sided p = 0.01324
    const test = pairedTest([1, 2, 3, 4, 5]);
    expect(test.p!).toBeCloseTo(0.013236, 5);
    // at level p the interval's edge reaches 0 exactly
    expect(halfWidth(test, test.p!)!).toBeCloseTo(3, 6);
    expect(pairedTest([0, 0, 0]).p).toBe(1);
    // the same shift on every seed: the sign-flip permutation p, 2 / 2^n
    expect(pairedTest([2, 2, 2]).p).toBe(0.25);
    expect(pairedTest(Array.from({ length: 10 }, () => -1)).p).toBe(2 / 1024);
    expect(pairedTest([4]).p).toBeNull();
  });

  it('needs more seeds for smaller effects, and n seeds detect the effect they were sized for', () => {
    const level = 0.05 / 40;
    const needed = [1, 0.5, 0.2].map((d) => seedsNeeded(d, level));
    expect(needed[0]!).toBeLessThan(needed[1]!);
    expect(needed[1]!).toBeLessThan(needed[2]!);
    for (const [d, n] of [
      [1, needed[0]!],
      [0.5, needed[1]!],
    ] as const) {
      const unit = { n, mean: 0, sd: 1, p: null };
      expect(minimumDetectable(unit, level)!).toBeLessThanOrEqual(d);
      expect(minimumDetectable({ ...unit, n: n - 1 }, level)!).toBeGreaterThan(d);
    }
  });
});
