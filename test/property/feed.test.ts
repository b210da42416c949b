import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareRanked,
  FEED_SORTS,
  matchesQuery,
  matchesQueryKey,
  queryKey,
  rankItems,
  rankScore,
  unseenStep,
  type Rankable,
} from '../../src/rules/social/feed.js';

/**
 * The feed's pure rules (docs/rules.md, Feed and Search; WIRE §9, §10): the sort orders with their newest-
 * first tiebreak (a total order, so pages never overlap), the case-insensitive search match, and one step
 * of the unseen cursor (oldest first, nothing skipped, never one's own post).
 */
const sort = fc.constantFrom(...FEED_SORTS);
const item = (seq: number) =>
  fc.record({ seq: fc.constant(seq), likesCount: fc.nat(3), repliesCount: fc.nat(3) });
/** Items with distinct seqs (posts and replies each have their own), in any order. */
const items: fc.Arbitrary<Rankable[]> = fc
  .uniqueArray(fc.nat(40), { maxLength: 15 })
  .chain((seqs) => fc.tuple(...seqs.map(item)));

function sign(n: number): number {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

describe('rankScore', () => {
  it('is likes + replies for trending, likes for top, and nothing for recent', () => {
    fc.assert(
      fc.property(item(0), (x) => {
        expect(rankScore('trending', x)).toBe(x.likesCount + x.repliesCount);
        expect(rankScore('top', x)).toBe(x.likesCount);
        expect(rankScore('recent', x)).toBe(0);
      }),
    );
  });
});

describe('compareRanked', () => {
  const triple = fc
    .tuple(fc.nat(20), fc.nat(20), fc.nat(20))
    .chain(([a, b, c]) => fc.tuple(item(a), item(b), item(c)));

  it('is antisymmetric and transitive, and equal only for one seq', () => {
    fc.assert(
      fc.property(sort, triple, (s, [a, b, c]) => {
        const compare = compareRanked(s);
        expect(sign(compare(a, b)) + sign(compare(b, a))).toBe(0);
        if (compare(a, b) <= 0 && compare(b, c) <= 0) expect(compare(a, c)).toBeLessThanOrEqual(0);
        if (a.seq !== b.seq) expect(compare(a, b)).not.toBe(0);
      }),
    );
  });

  it('sorts highest score first and equal scores newest first', () => {
    fc.assert(
      fc.property(sort, items, (s, list) => {
        const sorted = rankItems(list, s);
        for (let i = 1; i < sorted.length; i++) {
          const [x, y] = [sorted[i - 1]!, sorted[i]!];
          expect(rankScore(s, x)).toBeGreaterThanOrEqual(rankScore(s, y));
          if (rankScore(s, x) === rankScore(s, y)) expect(x.seq).toBeGreaterThan(y.seq);
        }
      }),
    );
  });
});

describe('rankItems', () => {
  it('returns a sorted copy, the same whatever the input order, and leaves the input alone', () => {
    fc.assert(
      fc.property(sort, items, (s, list) => {
        const before = [...list];
        const ranked = rankItems(list, s);
        expect(list).toEqual(before);
        expect(ranked).toEqual([...list].sort(compareRanked(s)));
        expect(rankItems([...list].reverse(), s)).toEqual(ranked);
        expect([...ranked].sort((a, b) => a.seq - b.seq)).toEqual([...list].sort((a, b) => a.seq - b.seq));
      }),
    );
  });

  it('orders recent by creation alone, newest first', () => {
    const list = [
      { seq: 1, likesCount: 9, repliesCount: 9 },
      { seq: 3, likesCount: 0, repliesCount: 0 },
      { seq: 2, likesCount: 5, repliesCount: 0 },
    ];
    expect(rankItems(list, 'recent').map((x) => x.seq)).toEqual([3, 2, 1]);
    expect(rankItems(list, 'top').map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(rankItems(list, 'trending').map((x) => x.seq)).toEqual([1, 2, 3]);
  });
});

describe('matchesQuery', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'B', 'c', 'D', ' ', '#', 'é'), maxLength: 12 });

  it('is a case-insensitive substring match, and the same through its key', () => {
    fc.assert(
      fc.property(text, text, (content, query) => {
        const expected = content.toLowerCase().includes(query.toLowerCase());
        expect(matchesQuery(content, query)).toBe(expected);
        expect(matchesQuery(content, query.toUpperCase())).toBe(expected);
        expect(matchesQueryKey(content.toLowerCase(), queryKey(query))).toBe(expected);
        expect(queryKey(queryKey(query))).toBe(queryKey(query));
      }),
    );
  });

  it('finds every piece of the content in it', () => {
    fc.assert(
      fc.property(text, fc.nat(12), fc.nat(12), (content, from, length) => {
        const piece = content.slice(from, from + length);
        expect(matchesQuery(content.toUpperCase(), piece)).toBe(true);
      }),
    );
    expect(matchesQuery('Sicilian Defence', 'sicilian d')).toBe(true);
    expect(matchesQuery('Sicilian Defence', 'french')).toBe(false);
  });
});

describe('unseenStep', () => {
  const own = fc.uniqueArray(fc.nat(30), { maxLength: 15 }).map((seqs) => new Set(seqs));
  const cursor = fc.option(fc.integer({ min: 0, max: 30 }));

  it('serves the oldest non-own posts after the cursor, at most limit, skipping none', () => {
    fc.assert(
      fc.property(cursor, fc.nat(30), fc.integer({ min: 1, max: 8 }), own, (at, count, limit, mine) => {
        const step = unseenStep(at, count, limit, (seq) => mine.has(seq));
        const waiting = Array.from({ length: count }, (_, seq) => seq).filter(
          (seq) => (at === null || seq > at) && !mine.has(seq),
        );
        expect(step.served).toEqual(waiting.slice(0, limit));
        expect(step.cursor).toBe(step.served.length > 0 ? step.served.at(-1) : at);
      }),
    );
  });

  it('serves every other post exactly once, in order, over repeated calls', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.integer({ min: 1, max: 5 }), own, (count, limit, mine) => {
        const served: number[] = [];
        let at: number | null = null;
        for (let call = 0; call <= count; call++) {
          const step = unseenStep(at, count, limit, (seq) => mine.has(seq));
          served.push(...step.served);
          at = step.cursor;
        }
        const others = Array.from({ length: count }, (_, seq) => seq).filter((seq) => !mine.has(seq));
        expect(served).toEqual(others);
      }),
    );
  });
});
