import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  gamesLlr,
  likelihoodOfSuperiority,
  pairsLlr,
  sprtLimits,
  sprtProblem,
  sprtState,
  type SprtBounds,
  type SprtModel,
} from '../../src/rules/chess/sprt.js';

const runs = { numRuns: 300 };

/** Within 1%, as fastchess's own tests compare (doctest Approx epsilon 0.01). */
function near(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * 0.01);
}

const bounds = (elo0: number, elo1: number, model: SprtModel = 'logistic'): SprtBounds => ({
  elo0,
  elo1,
  alpha: 0.05,
  beta: 0.05,
  model,
});

describe('SPRT arithmetic against fastchess', () => {
  it("matches fastchess's published logistic figures (its test suite), trinomial and pentanomial", () => {
    near(gamesLlr({ wins: 21404, draws: 40708, losses: 21184 }, bounds(0.5, 2.5)), -1.57);
    near(gamesLlr({ wins: 57433, draws: 106593, losses: 57030 }, bounds(0, 2)), -2.59);
    near(
      pairsLlr(
        { winWin: 246, winDraw: 10037, even: 20279 + 1000, lossDraw: 9863, lossLoss: 223 },
        bounds(0.5, 2.5),
      ),
      -3.07,
    );
    near(
      pairsLlr(
        { winWin: 821, winDraw: 26678, even: 55003 + 980, lossDraw: 26175, lossLoss: 871 },
        bounds(0, 2),
      ),
      -4.98,
    );
  });

  it("the SPRT's LLR under model=normalized matches fastchess's published test cases", () => {
    // fastchess tests/sprt_test.cpp: "normalized trinomial 1, 2" and "normalized pentanomial 1, 2".
    near(gamesLlr({ wins: 36433, draws: 68692, losses: 36027 }, bounds(0, 2, 'normalized')), 0.92);
    near(gamesLlr({ wins: 10871, draws: 20431, losses: 10650 }, bounds(-1.75, 0.25, 'normalized')), 2.3);
    near(
      pairsLlr(
        { winWin: 390, winDraw: 16974, even: 36029 + 200, lossDraw: 16618, lossLoss: 365 },
        bounds(0, 2, 'normalized'),
      ),
      2.25,
    );
    near(
      pairsLlr(
        { winWin: 104, winDraw: 5150, even: 10311 + 401, lossDraw: 4883, lossLoss: 127 },
        bounds(-1.75, 0.25, 'normalized'),
      ),
      3.01,
    );
  });

  it('takes normalized Elo when no model is named, as fastchess does', () => {
    const counts = { wins: 36433, draws: 68692, losses: 36027 };
    const { model: _logistic, ...unnamed } = bounds(0, 2);
    expect(gamesLlr(counts, unnamed)).toBe(gamesLlr(counts, bounds(0, 2, 'normalized')));
    expect(gamesLlr(counts, unnamed)).not.toBeCloseTo(gamesLlr(counts, bounds(0, 2, 'logistic')), 1);
    // No spread yet (every game drawn): nothing to scale the bounds by, so no evidence either way.
    expect(gamesLlr({ wins: 0, draws: 9, losses: 0 }, bounds(0, 10, 'normalized'))).toBe(0);
  });

  it('has the bounds fastchess prints for alpha = beta = 0.05: (-2.94, 2.94)', () => {
    const { lower, upper } = sprtLimits(bounds(0, 10));
    expect([lower.toFixed(2), upper.toFixed(2)]).toEqual(['-2.94', '2.94']);
    expect(sprtState(3, bounds(0, 10)).decision).toBe('H1');
    expect(sprtState(-3, bounds(0, 10)).decision).toBe('H0');
    expect(sprtState(0, bounds(0, 10)).decision).toBe('continue');
  });

  it('refuses bounds that make no test', () => {
    expect(sprtProblem(bounds(5, 2))).toMatch(/elo0 must be less/);
    expect(sprtProblem({ elo0: 0, elo1: 5, alpha: 0.6, beta: 0.6 })).toMatch(/alpha \+ beta/);
    expect(sprtProblem({ elo0: 0, elo1: 5, alpha: 1, beta: 0.05 })).toMatch(/between 0 and 1/);
    expect(sprtProblem(bounds(0, 5))).toBeUndefined();
  });

  const counts = fc
    .record({ wins: fc.nat(3000), draws: fc.nat(3000), losses: fc.nat(3000) })
    .filter((c) => c.wins + c.draws + c.losses > 0);
  const elos = fc
    .tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: 0.5, max: 30, noNaN: true }))
    .map(([e0, gap]) => bounds(e0, e0 + gap));

  it('is antisymmetric: the other side of the same games, with the hypotheses mirrored, has the opposite LLR', () => {
    fc.assert(
      fc.property(counts, elos, fc.constantFrom<SprtModel>('logistic', 'normalized'), (c, e, model) => {
        const b = { ...e, model };
        const mirrored = gamesLlr(
          { wins: c.losses, draws: c.draws, losses: c.wins },
          bounds(-b.elo1, -b.elo0, model),
        );
        expect(Math.abs(mirrored + gamesLlr(c, b))).toBeLessThan(1e-6 * (1 + Math.abs(mirrored)));
      }),
      runs,
    );
  });

  it('rises with a win and falls with a loss', () => {
    fc.assert(
      fc.property(counts, elos, (c, b) => {
        const base = gamesLlr(c, b);
        expect(gamesLlr({ ...c, wins: c.wins + 1 }, b)).toBeGreaterThanOrEqual(base - 1e-9);
        expect(gamesLlr({ ...c, losses: c.losses + 1 }, b)).toBeLessThanOrEqual(base + 1e-9);
      }),
      runs,
    );
  });

  it('gives a likelihood of superiority of one half for an even record, and more for more wins', () => {
    expect(likelihoodOfSuperiority(10, 10)).toBeCloseTo(0.5, 9);
    expect(likelihoodOfSuperiority(0, 0)).toBe(0.5);
    fc.assert(
      fc.property(fc.nat(500), fc.nat(500), (w, l) => {
        const los = likelihoodOfSuperiority(w, l);
        expect(los).toBeGreaterThanOrEqual(0);
        expect(los).toBeLessThanOrEqual(1);
        expect(likelihoodOfSuperiority(w + 1, l)).toBeGreaterThanOrEqual(los);
      }),
      runs,
    );
  });
});
