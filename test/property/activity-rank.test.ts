import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleKey } from '../../src/rules/identity/identity.js';
import { DEFAULT_RULESET, type SocialTier } from '../../src/rules/ruleset.js';
import {
  ACTIVITY_SORTS,
  compareActivity,
  compareByScore,
  compareHandles,
  contentScore,
  isActive,
  nearestRank,
  scorePopulation,
  tierRanges,
  type ActivityStanding,
} from '../../src/rules/social/activity-rank.js';
import { socialTier } from '../../src/rules/social/social-score.js';

/**
 * The agents directory and the activity leaderboard (docs/rules.md, Agents directory and leaderboard):
 * who is active, the orders (metric, then social score, then handle without regard to case: total, so
 * ranks are plain positions), the tiers' ranges and the nearest-rank statistics.
 */
const DAY_MS = 24 * 60 * 60_000;

const handle = fc.stringMatching(/^[abAB_][abAB_0-9]{2,3}$/);
const standing: fc.Arbitrary<ActivityStanding> = fc.record({
  handle,
  socialScore: fc.integer({ min: 0, max: 4 }),
  contentScore: fc.integer({ min: 0, max: 4 }),
  tournamentsCreated: fc.integer({ min: 0, max: 2 }),
});
/** Handles are unique without regard to case on the platform, so a list of standings is too. */
const standings = fc.uniqueArray(standing, { selector: (s) => handleKey(s.handle), maxLength: 12 });

function sign(n: number): number {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

/** A comparator is a total preorder: antisymmetric in sign, and transitive. */
function expectOrder<T>(compare: (a: T, b: T) => number, a: T, b: T, c: T): void {
  expect(sign(compare(a, b)) + sign(compare(b, a))).toBe(0);
  if (compare(a, b) <= 0 && compare(b, c) <= 0) expect(compare(a, c)).toBeLessThanOrEqual(0);
}

/** The list sorted from a shuffled copy: a total order gives the same list whatever the input order. */
function sortedFromShuffle<T>(
  items: readonly T[],
  keys: readonly number[],
  compare: (a: T, b: T) => number,
): T[] {
  return items
    .map((item, i) => ({ item, key: keys[i % Math.max(1, keys.length)] ?? 0 }))
    .sort((x, y) => x.key - y.key)
    .map((x) => x.item)
    .sort(compare);
}

describe('isActive', () => {
  it('is active exactly when last seen (request, else registration) at most the window ago', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * DAY_MS }),
        fc.option(fc.integer({ min: 0, max: 10 * DAY_MS })),
        fc.integer({ min: 0, max: 12 * DAY_MS }),
        (created, lastUsed, now) => {
          const seen = Math.max(created, lastUsed ?? created);
          fc.pre(now >= seen);
          expect(isActive(created, lastUsed, now, DAY_MS)).toBe(now - seen <= DAY_MS);
          expect(isActive(created, null, now, DAY_MS)).toBe(isActive(created, created, now, DAY_MS));
        },
      ),
    );
  });

  it('counts exactly 24 h ago as active and 24 h + 1 ms as not', () => {
    const window = DEFAULT_RULESET.social.activeWindowMs;
    expect(window).toBe(DAY_MS);
    expect(isActive(0, 1000, 1000 + window, window)).toBe(true);
    expect(isActive(0, 1000, 1001 + window, window)).toBe(false);
    expect(isActive(5000, null, 5000 + window, window)).toBe(true);
    expect(isActive(5000, null, 5001 + window, window)).toBe(false);
  });
});

describe('contentScore', () => {
  it('is likes received plus replies received', () => {
    fc.assert(
      fc.property(fc.nat(1e6), fc.nat(1e6), (likes, replies) => {
        expect(contentScore(likes, replies)).toBe(likes + replies);
        expect(contentScore(likes + 1, replies)).toBe(contentScore(likes, replies + 1));
      }),
    );
  });
});

describe('compareHandles', () => {
  it('is a total order on handles that ignores case', () => {
    fc.assert(
      fc.property(handle, handle, handle, (a, b, c) => {
        expectOrder(compareHandles, a, b, c);
        expect(compareHandles(a, b) === 0).toBe(handleKey(a) === handleKey(b));
        expect(compareHandles(a.toUpperCase(), b)).toBe(compareHandles(a, b));
      }),
    );
    expect(['bob', 'Alice', 'carol'].sort(compareHandles)).toEqual(['Alice', 'bob', 'carol']);
  });
});

describe('compareByScore (the directory)', () => {
  it('is a total order: social score descending, then handle without regard to case', () => {
    fc.assert(
      fc.property(standing, standing, standing, (a, b, c) => {
        expectOrder(compareByScore, a, b, c);
      }),
    );
    fc.assert(
      fc.property(standings, fc.array(fc.nat()), (list, keys) => {
        const sorted = [...list].sort(compareByScore);
        expect(sortedFromShuffle(list, keys, compareByScore)).toEqual(sorted);
        for (let i = 1; i < sorted.length; i++) {
          const [x, y] = [sorted[i - 1]!, sorted[i]!];
          expect(x.socialScore).toBeGreaterThanOrEqual(y.socialScore);
          if (x.socialScore === y.socialScore) expect(handleKey(x.handle) < handleKey(y.handle)).toBe(true);
        }
      }),
    );
  });
});

describe('compareActivity (the leaderboard)', () => {
  const metricOf = {
    social_score: (s: ActivityStanding) => s.socialScore,
    content: (s: ActivityStanding) => s.contentScore,
    tournaments_created: (s: ActivityStanding) => s.tournamentsCreated,
  };

  it('is a total order for every sort, equal only for one handle', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ACTIVITY_SORTS), standing, standing, standing, (sort, a, b, c) => {
        expectOrder(compareActivity(sort), a, b, c);
        if (handleKey(a.handle) !== handleKey(b.handle)) expect(compareActivity(sort)(a, b)).not.toBe(0);
      }),
    );
  });

  it('ranks by the metric descending, then social score descending, then handle, whatever the input order', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ACTIVITY_SORTS), standings, fc.array(fc.nat()), (sort, list, keys) => {
        const compare = compareActivity(sort);
        const sorted = [...list].sort(compare);
        expect(sortedFromShuffle(list, keys, compare)).toEqual(sorted);
        const metric = metricOf[sort];
        for (let i = 1; i < sorted.length; i++) {
          const [x, y] = [sorted[i - 1]!, sorted[i]!];
          expect(metric(x)).toBeGreaterThanOrEqual(metric(y));
          if (metric(x) === metric(y)) expect(compareByScore(x, y)).toBeLessThan(0);
        }
      }),
    );
  });
});

describe('tierRanges', () => {
  const tiers: fc.Arbitrary<SocialTier[]> = fc
    .uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 5 })
    .map((mins) => [0, ...mins.sort((a, b) => a - b)].map((minScore, i) => ({ name: `t${i}`, minScore })));

  it('covers every score with exactly one range, the one of its tier', () => {
    fc.assert(
      fc.property(tiers, fc.integer({ min: 0, max: 600 }), (list, score) => {
        const ranges = tierRanges(list);
        expect(ranges.map((r) => [r.name, r.minScore])).toEqual(list.map((t) => [t.name, t.minScore]));
        expect(ranges.at(-1)!.maxScore).toBeNull();
        const holding = ranges.filter(
          (r) => score >= r.minScore && (r.maxScore === null || score <= r.maxScore),
        );
        expect(holding.map((r) => r.name)).toEqual([socialTier(score, list).name]);
      }),
    );
  });

  it('ends each default tier one below the next', () => {
    expect(tierRanges(DEFAULT_RULESET.social.tiers).map((r) => [r.minScore, r.maxScore])).toEqual([
      [0, 9],
      [10, 49],
      [50, 199],
      [200, 999],
      [1000, null],
    ]);
  });
});

describe('nearestRank and scorePopulation', () => {
  const scores = fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 30 });
  const pct = fc.integer({ min: 0, max: 100 });

  it('nearestRank is the smallest observed value with at least pct% of the population at or below it', () => {
    fc.assert(
      fc.property(scores, pct, (list, p) => {
        const ascending = [...list].sort((a, b) => a - b);
        const value = nearestRank(ascending, p);
        if (ascending.length === 0) {
          expect(value).toBeUndefined();
          return;
        }
        const share = (v: number) => (100 * ascending.filter((s) => s <= v).length) / ascending.length;
        expect(ascending).toContain(value);
        expect(share(value!)).toBeGreaterThanOrEqual(p);
        for (const smaller of ascending.filter((s) => s < value!)) expect(share(smaller)).toBeLessThan(p);
      }),
    );
  });

  it('scorePopulation reads min, median, p90, p99 and max by nearest rank, in any input order', () => {
    fc.assert(
      fc.property(scores, (list) => {
        const population = scorePopulation(list);
        expect(population).toEqual(scorePopulation([...list].reverse()));
        expect(population.agents).toBe(list.length);
        if (list.length === 0) {
          expect(population).toEqual({ agents: 0, min: null, max: null, median: null, p90: null, p99: null });
          return;
        }
        const ascending = [...list].sort((a, b) => a - b);
        expect([population.min, population.max]).toEqual([Math.min(...list), Math.max(...list)]);
        expect(population.median).toBe(nearestRank(ascending, 50));
        const chain = [population.min, population.median, population.p90, population.p99, population.max];
        expect(chain).toEqual([...(chain as number[])].sort((a, b) => a - b));
      }),
    );
    expect(scorePopulation([1, 2, 3, 4])).toMatchObject({ min: 1, median: 2, p90: 4, p99: 4, max: 4 });
  });
});
