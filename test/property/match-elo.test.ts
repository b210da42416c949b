import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eloFromScore, matchElo, type MatchResult } from '../../src/rules/chess/match-elo.js';

const params = { numRuns: 1000 };
const count = fc.integer({ min: 0, max: 500 });
const result: fc.Arbitrary<MatchResult> = fc
  .record({ wins: count, draws: count, losses: count })
  .filter((r) => r.wins + r.draws + r.losses > 0);
/** Neither a perfect win nor a perfect loss: the normal interval applies. */
const mixed = result.filter((r) => r.wins + r.draws > 0 && r.losses + r.draws > 0);

const width = (r: MatchResult) => {
  const e = matchElo(r);
  return e.high - e.low;
};

describe('match Elo properties', () => {
  it('swapping wins and losses negates the estimate and mirrors the interval', () => {
    fc.assert(
      fc.property(result, (r) => {
        const forward = matchElo(r);
        const swapped = matchElo({ wins: r.losses, draws: r.draws, losses: r.wins });
        expectClose(swapped.elo, -forward.elo);
        expectClose(swapped.estimate, -forward.estimate);
        expectClose(swapped.low, -forward.high);
        expectClose(swapped.high, -forward.low);
      }),
      params,
    );
  });

  it('a 50% score is exactly 0 Elo', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 500 }), (decisive, draws) => {
        fc.pre(decisive + draws > 0);
        expect(matchElo({ wins: decisive, draws, losses: decisive }).elo).toBe(0);
      }),
      params,
    );
  });

  it('the interval contains the estimate, which is always finite', () => {
    fc.assert(
      fc.property(result, (r) => {
        const e = matchElo(r);
        expect(e.low).toBeLessThanOrEqual(e.elo);
        expect(e.elo).toBeLessThanOrEqual(e.high);
        expect(Number.isFinite(e.estimate)).toBe(true);
        expect(e.low).toBeLessThanOrEqual(e.estimate);
        expect(e.estimate).toBeLessThanOrEqual(e.high);
        if (Number.isFinite(e.elo)) expect(e.estimate).toBe(e.elo);
      }),
      params,
    );
  });

  it('at a fixed score the interval narrows as the games grow', () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: 2, max: 20 }), (r, k) => {
        const bigger = { wins: r.wins * k, draws: r.draws * k, losses: r.losses * k };
        expect(matchElo(bigger).score).toBeCloseTo(matchElo(r).score, 12);
        if (Number.isFinite(width(bigger))) expect(width(bigger)).toBeLessThan(width(r));
        else expect(width(r)).toBe(Infinity);
      }),
      params,
    );
  });

  it('a perfect score is infinite, with a finite bound and estimate that rise with the games', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), (n) => {
        const perfect = matchElo({ wins: n, draws: 0, losses: 0 });
        const more = matchElo({ wins: n + 1, draws: 0, losses: 0 });
        expect(perfect.elo).toBe(Infinity);
        expect(perfect.high).toBe(Infinity);
        expect(Number.isFinite(perfect.low)).toBe(true);
        expect(perfect.estimate).toBeGreaterThanOrEqual(0); // 0 at N = 1: one win is as likely as not between equals
        expect(more.low).toBeGreaterThan(perfect.low);
        expect(more.estimate).toBeGreaterThan(perfect.estimate);
        expect(matchElo({ wins: 0, draws: 0, losses: n }).high).toBeCloseTo(-perfect.low, 9);
      }),
      params,
    );
  });

  it('trading a loss for a draw or a draw for a win raises the estimate', () => {
    fc.assert(
      fc.property(result, (r) => {
        fc.pre(r.losses > 0);
        const before = matchElo(r).elo;
        expect(matchElo({ wins: r.wins, draws: r.draws + 1, losses: r.losses - 1 }).elo).toBeGreaterThan(
          before,
        );
        expect(matchElo({ wins: r.wins + 1, draws: r.draws, losses: r.losses - 1 }).elo).toBeGreaterThan(
          before,
        );
      }),
      params,
    );
  });

  it('eloFromScore inverts the expected-score curve', () => {
    fc.assert(
      fc.property(fc.double({ min: -1500, max: 1500, noNaN: true }), (diff) => {
        expect(eloFromScore(1 / (1 + 10 ** (-diff / 400)))).toBeCloseTo(diff, 6);
      }),
      params,
    );
  });
});

describe('match Elo known values', () => {
  it('a 75% score is about +191 Elo', () => {
    expect(matchElo({ wins: 3, draws: 0, losses: 1 }).elo).toBeCloseTo(190.85, 2);
    expect(matchElo({ wins: 1, draws: 1, losses: 0 }).elo).toBeCloseTo(190.85, 2);
  });

  it('reports the interval from the per-game variance, as match runners do', () => {
    // 60 wins, 20 draws, 20 losses: s = 0.7, var = 0.19, se = sqrt(0.19 / 100).
    const e = matchElo({ wins: 60, draws: 20, losses: 20 });
    expect(e.score).toBeCloseTo(0.7, 12);
    expect(e.elo).toBeCloseTo(147.19, 2);
    expect(e.low).toBeCloseTo(86.22, 2);
    expect(e.high).toBeCloseTo(218.25, 2);
    // All draws: no variance, so no spread.
    expect(matchElo({ wins: 0, draws: 10, losses: 0 })).toMatchObject({ elo: 0, low: 0, high: 0 });
  });

  it('a 10-0 sweep is at least about +140 (0.025 ** (1/10) ≈ 0.6915), most likely about +458 (0.5 ** (1/10))', () => {
    const sweep = matchElo({ wins: 10, draws: 0, losses: 0 });
    expect(sweep.low).toBeCloseTo(140.22, 2);
    expect(sweep.estimate).toBeCloseTo(457.61, 1);
  });

  it('rejects counts that are not a match', () => {
    expect(() => matchElo({ wins: 0, draws: 0, losses: 0 })).toThrow(RangeError);
    expect(() => matchElo({ wins: -1, draws: 2, losses: 0 })).toThrow(RangeError);
    expect(() => matchElo({ wins: 1.5, draws: 0, losses: 0 })).toThrow(RangeError);
  });
});

/** Equal to many digits, with infinities compared exactly. */
function expectClose(actual: number, expected: number): void {
  if (Number.isFinite(expected)) expect(actual).toBeCloseTo(expected, 9);
  else expect(actual).toBe(expected);
}
