import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eloFromScore, matchElo, type MatchResult } from '../../src/rules/chess/match-elo.js';

const params = { numRuns: 1000 };
const count = fc.integer({ min: 0, max: 500 });
const result: fc.Arbitrary<MatchResult> = fc
  .record({ wins: count, draws: count, losses: count })
  .filter((r) => r.wins + r.draws + r.losses > 0);

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

  it('the interval is finite, never of zero width, and contains the estimate', () => {
    fc.assert(
      fc.property(result, (r) => {
        const e = matchElo(r);
        expect(Number.isFinite(e.low) && Number.isFinite(e.high) && Number.isFinite(e.estimate)).toBe(true);
        expect(e.high - e.low).toBeGreaterThan(0);
        expect(e.low).toBeLessThan(e.estimate);
        expect(e.estimate).toBeLessThan(e.high);
        if (Number.isFinite(e.elo)) expect(Math.sign(e.estimate)).toBe(Math.sign(e.elo));
      }),
      params,
    );
  });

  it('at a fixed score the interval narrows as the games grow', () => {
    fc.assert(
      fc.property(result, fc.integer({ min: 2, max: 20 }), (r, k) => {
        const bigger = { wins: r.wins * k, draws: r.draws * k, losses: r.losses * k };
        expect(width(bigger)).toBeLessThan(width(r));
      }),
      params,
    );
  });

  it('lower and upper bounds respect the order of records: a win more raises both, a loss more lowers both', () => {
    fc.assert(
      fc.property(result, (r) => {
        const base = matchElo(r);
        const won = matchElo({ ...r, wins: r.wins + 1 });
        const lost = matchElo({ ...r, losses: r.losses + 1 });
        expect(won.low).toBeGreaterThan(base.low);
        expect(won.high).toBeGreaterThan(base.high);
        expect(won.estimate).toBeGreaterThan(base.estimate);
        expect(lost.low).toBeLessThan(base.low);
        expect(lost.high).toBeLessThan(base.high);
        expect(lost.estimate).toBeLessThan(base.estimate);
      }),
      params,
    );
  });

  it('trading a loss for a draw or a draw for a win raises the estimate and both bounds', () => {
    fc.assert(
      fc.property(result, (r) => {
        fc.pre(r.losses > 0);
        const before = matchElo(r);
        for (const after of [
          matchElo({ wins: r.wins, draws: r.draws + 1, losses: r.losses - 1 }),
          matchElo({ wins: r.wins + 1, draws: r.draws, losses: r.losses - 1 }),
        ]) {
          expect(after.elo).toBeGreaterThan(before.elo);
          expect(after.estimate).toBeGreaterThan(before.estimate);
          expect(after.low).toBeGreaterThan(before.low);
          expect(after.high).toBeGreaterThan(before.high);
        }
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

  it("reports the prior-shrunk estimate in a Wilson interval (hand-computed: 60/20/20 -> s' = 71/102)", () => {
    // s' = 0.696078, n' = 102; Wilson centre 0.688917, half-width 0.087952 -> [0.600965, 0.776869].
    const e = matchElo({ wins: 60, draws: 20, losses: 20 });
    expect(e.score).toBeCloseTo(0.7, 12);
    expect(e.elo).toBeCloseTo(147.19, 2);
    expect(e.estimate).toBeCloseTo(143.96, 2);
    expect(e.low).toBeCloseTo(71.19, 1);
    expect(e.high).toBeCloseTo(216.71, 1);
  });

  it('18 draws of 18 is 0 with a real interval, not 0 [0, 0]; 2 wins of 2 is finite, not +inf', () => {
    const draws = matchElo({ wins: 0, draws: 18, losses: 0 });
    expect(draws.estimate).toBe(0);
    expect(draws.low).toBeCloseTo(-draws.high, 9);
    expect(draws.high).toBeGreaterThan(100);
    const two = matchElo({ wins: 2, draws: 0, losses: 0 });
    expect(two.elo).toBe(Infinity);
    expect(two.estimate).toBeCloseTo(190.85, 2); // (2 + 1) / (2 + 2) = 0.75
    expect(two.low).toBeLessThan(0); // two games do not show the better player
    expect(Number.isFinite(two.high)).toBe(true);
  });

  it('10-0-0 has a lower bound above the worse 10-1-0', () => {
    expect(matchElo({ wins: 10, draws: 0, losses: 0 }).low).toBeGreaterThan(
      matchElo({ wins: 10, draws: 1, losses: 0 }).low,
    );
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

describe('match Elo over a grid of records', () => {
  it('every W/D/L with 0..12 of each: finite, never zero width, and the order of records kept by both bounds', () => {
    const N = 12;
    for (let w = 0; w <= N; w++)
      for (let d = 0; d <= N; d++)
        for (let l = 0; l <= N; l++) {
          if (w + d + l === 0) continue;
          const e = matchElo({ wins: w, draws: d, losses: l });
          expect(Number.isFinite(e.low) && Number.isFinite(e.high)).toBe(true);
          expect(e.high - e.low).toBeGreaterThan(0);
          if (w < N) expect(matchElo({ wins: w + 1, draws: d, losses: l }).low).toBeGreaterThan(e.low);
          if (l < N) expect(matchElo({ wins: w, draws: d, losses: l + 1 }).high).toBeLessThan(e.high);
        }
  });
});
