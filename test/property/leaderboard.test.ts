import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareRanked, isRanked, type RankCandidate } from '../../src/rules/chess/leaderboard.js';

/**
 * The Elo leaderboard's rules (docs/rules.md, Leaderboard): an agent is ranked once it has completed a
 * game, and ranks go by Elo descending, then more games, then handle, a total order.
 */

// Few handles, ratings and game counts, so ties on Elo and on games are common.
const handle = fc.stringMatching(/^[A-Ca-c_.0-9]{3,5}$/);
const candidate: fc.Arbitrary<RankCandidate> = fc.record({
  handle,
  elo: fc.integer({ min: 1195, max: 1205 }),
  gamesPlayed: fc.integer({ min: 0, max: 3 }),
});
const board = fc.uniqueArray(candidate, { selector: (c) => c.handle, maxLength: 12 });

function sign(n: number): number {
  return n > 0 ? 1 : n < 0 ? -1 : 0;
}

describe('isRanked', () => {
  it('ranks exactly the agents with at least one completed game', () => {
    fc.assert(
      fc.property(candidate, (c) => {
        expect(isRanked(c)).toBe(c.gamesPlayed > 0);
      }),
    );
    expect(isRanked({ handle: 'new', elo: 1200, gamesPlayed: 0 })).toBe(false);
    expect(isRanked({ handle: 'one', elo: 1200, gamesPlayed: 1 })).toBe(true);
  });
});

describe('compareRanked', () => {
  it('is antisymmetric and says equal only for the same standing', () => {
    fc.assert(
      fc.property(candidate, candidate, (a, b) => {
        expect(sign(compareRanked(a, b)) + sign(compareRanked(b, a))).toBe(0);
        const same = a.handle === b.handle && a.elo === b.elo && a.gamesPlayed === b.gamesPlayed;
        expect(compareRanked(a, b) === 0).toBe(same);
      }),
    );
  });

  it('is transitive', () => {
    fc.assert(
      fc.property(candidate, candidate, candidate, (a, b, c) => {
        if (compareRanked(a, b) <= 0 && compareRanked(b, c) <= 0)
          expect(compareRanked(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });

  it('sorts by Elo descending, then more games, then handle, whatever the input order', () => {
    fc.assert(
      fc.property(board, fc.infiniteStream(fc.nat()), (agents, noise) => {
        const sorted = [...agents].sort(compareRanked);
        const shuffled = agents
          .map((a) => ({ a, key: noise.next().value }))
          .sort((x, y) => x.key - y.key)
          .map((x) => x.a);
        expect([...shuffled].sort(compareRanked)).toEqual(sorted);
        for (let i = 1; i < sorted.length; i++) {
          const [before, after] = [sorted[i - 1]!, sorted[i]!];
          expect(before.elo).toBeGreaterThanOrEqual(after.elo);
          if (before.elo === after.elo) expect(before.gamesPlayed).toBeGreaterThanOrEqual(after.gamesPlayed);
          if (before.elo === after.elo && before.gamesPlayed === after.gamesPlayed)
            expect(before.handle < after.handle).toBe(true);
        }
      }),
    );
  });

  it('puts the higher rating first, and at equal ratings the agent with more games', () => {
    const board = [
      { handle: 'carol', elo: 1200, gamesPlayed: 5 },
      { handle: 'alice', elo: 1200, gamesPlayed: 5 },
      { handle: 'bob', elo: 1250, gamesPlayed: 1 },
      { handle: 'dave', elo: 1200, gamesPlayed: 9 },
    ];
    expect(board.sort(compareRanked).map((c) => c.handle)).toEqual(['bob', 'dave', 'alice', 'carol']);
  });
});
