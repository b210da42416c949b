import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BRACKET_SIZES,
  advancer,
  bracketOrder,
  firstRoundPairings,
  matchColours,
  nextSlot,
  placements,
  playBracket,
  roundsFor,
  seedEntrants,
  type Entrant,
  type PlayedMatch,
  type Seeded,
} from '../../src/rules/chess/brackets.js';

const params = { numRuns: 300 };
type Result = 'white' | 'black' | null;
const result = fc.constantFrom<Result>('white', 'black', null);
// A narrow band forces many Elo ties; a wide one exercises ordinary seeding.
const elo = fc.oneof(fc.integer({ min: 1200, max: 1204 }), fc.integer({ min: 100, max: 3000 }));

/** A field of `size` entrants with distinct ids and join orders, given in a random order. */
function field(size: number): fc.Arbitrary<Entrant[]> {
  return fc
    .tuple(
      fc.array(elo, { minLength: size, maxLength: size }),
      fc.uniqueArray(fc.nat(10_000), { minLength: size, maxLength: size }),
    )
    .map(([elos, joins]) => elos.map((e, i) => ({ id: `agent-${i}`, elo: e, joinOrder: joins[i]! })));
}

const bracketCase = fc.constantFrom(...BRACKET_SIZES).chain((size) =>
  fc.record({
    size: fc.constant(size),
    entrants: field(size),
    results: fc.array(result, { minLength: size - 1, maxLength: size - 1 }),
  }),
);

/** The checker's own reading of the tiebreak, written apart from `advancer`. */
function expectedAdvancer(m: PlayedMatch): Seeded {
  if (m.result === 'white') return m.white;
  if (m.result === 'black') return m.black;
  return m.white.eloAtSeed < m.black.eloAtSeed ? m.white : m.black;
}

function checkRounds(size: number, entrants: readonly Entrant[], rounds: PlayedMatch[][]): void {
  expect(rounds).toHaveLength(Math.log2(size));
  expect(rounds.flat()).toHaveLength(size - 1);
  expect(rounds[0]!.flatMap((m) => [m.white.id, m.black.id]).sort()).toEqual(
    entrants.map((e) => e.id).sort(),
  );
  rounds.forEach((matches, r) => {
    expect(matches).toHaveLength(size / 2 ** (r + 1));
    const ids = matches.flatMap((m) => [m.white.id, m.black.id]);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of matches) {
      expect(m.round).toBe(r + 1);
      expect(m.white.seed).toBeLessThan(m.black.seed);
      expect(m.advanced).toBe(expectedAdvancer(m));
    }
    const next = rounds[r + 1];
    if (next === undefined) return;
    next.forEach((m, i) => {
      const fromMatches = [matches[2 * i]!.advanced.id, matches[2 * i + 1]!.advanced.id].sort();
      expect([m.white.id, m.black.id].sort()).toEqual(fromMatches);
    });
  });
}

describe('bracket properties', () => {
  it('every bracket halves each round, ends with one champion and obeys the tiebreak', () => {
    fc.assert(
      fc.property(bracketCase, ({ size, entrants, results }) => {
        let game = 0;
        const played = playBracket(entrants, () => results[game++]!);
        expect(game).toBe(size - 1);
        checkRounds(size, entrants, played.rounds);
        const losers = new Set(
          played.rounds.flat().map((m) => (m.advanced === m.white ? m.black.id : m.white.id)),
        );
        const unbeaten = entrants.filter((e) => !losers.has(e.id));
        expect(unbeaten.map((e) => e.id)).toEqual([played.champion.id]);
        expect(played.champion).toBe(played.rounds.at(-1)![0]!.advanced);
        expect(played.placements).toHaveLength(4);
        expect(new Set(played.placements).size).toBe(4);
        expect(played.placements[0]).toBe(played.champion.id);
      }),
      params,
    );
  });

  it('when the better seed always wins, round r holds exactly seeds 1..size/2^(r-1): top seeds meet last', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BRACKET_SIZES).chain(field), (entrants) => {
        const played = playBracket(entrants, (white, black) => (white.seed < black.seed ? 'white' : 'black'));
        played.rounds.forEach((matches, r) => {
          const seeds = matches.flatMap((m) => [m.white.seed, m.black.seed]).sort((a, b) => a - b);
          expect(seeds).toEqual(Array.from({ length: entrants.length / 2 ** r }, (_, i) => i + 1));
        });
        const final = played.rounds.at(-1)![0]!;
        expect([final.white.seed, final.black.seed]).toEqual([1, 2]);
        expect(played.champion.seed).toBe(1);
      }),
      params,
    );
  });

  it('seeding: Elo descending, ties to the earlier joiner, whatever the input order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }).chain(field), (entrants) => {
        const seeded = seedEntrants(entrants);
        expect(seedEntrants([...entrants].reverse())).toEqual(seeded);
        seeded.forEach((s, i) => {
          expect(s.seed).toBe(i + 1);
          expect(s.eloAtSeed).toBe(s.elo);
          const prev = seeded[i - 1];
          if (prev === undefined) return;
          expect(prev.elo).toBeGreaterThanOrEqual(s.elo);
          if (prev.elo === s.elo) expect(prev.joinOrder).toBeLessThan(s.joinOrder);
        });
      }),
      params,
    );
  });
});

describe('bracket order', () => {
  it('matches the 8-player layout', () => {
    expect(bracketOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(bracketOrder(2)).toEqual([1, 2]);
    expect(firstRoundPairings(8)).toEqual([
      [1, 8],
      [4, 5],
      [2, 7],
      [3, 6],
    ]);
  });

  it('is a permutation of 1..size whose first-round pairs sum to size + 1', () => {
    for (let size = 2; size <= 1024; size *= 2) {
      const order = bracketOrder(size);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      for (const [a, b] of firstRoundPairings(size)) expect(a + b).toBe(size + 1);
      expect(roundsFor(size)).toBe(Math.log2(size));
    }
  });

  it('rejects sizes that are not a power of two >= 2', () => {
    for (const bad of [0, 1, 3, 6, 12, 48, -8, 8.5, Number.NaN]) expect(() => bracketOrder(bad)).toThrow();
    expect(() => playBracket([], () => 'white')).toThrow();
  });
});

describe('bracket steps', () => {
  const a: Seeded = { id: 'a', elo: 1500, joinOrder: 0, seed: 1, eloAtSeed: 1500 };
  const b: Seeded = { id: 'b', elo: 1400, joinOrder: 1, seed: 2, eloAtSeed: 1400 };
  const tie: Seeded = { id: 'c', elo: 1500, joinOrder: 2, seed: 3, eloAtSeed: 1500 };

  it('the better seed plays White; a draw sends the lower Elo through, equal Elo sends Black', () => {
    expect(matchColours(b, a)).toEqual({ white: a, black: b });
    expect(advancer(a, b, 'white')).toBe('white');
    expect(advancer(a, b, 'black')).toBe('black');
    expect(advancer(a, b, null)).toBe('black');
    expect(advancer(b, a, null)).toBe('white');
    expect(advancer(a, tie, null)).toBe('black');
  });

  it('nextSlot feeds matches 2i and 2i+1 into match i of the next round', () => {
    expect(nextSlot(1, 0)).toEqual({ round: 2, matchIndex: 0, slot: 0 });
    expect(nextSlot(1, 1)).toEqual({ round: 2, matchIndex: 0, slot: 1 });
    expect(nextSlot(2, 5)).toEqual({ round: 3, matchIndex: 2, slot: 1 });
  });

  it('placements: 3rd is the semifinal loser beaten by the champion', () => {
    const semis = [
      { winner: 'w1', loser: 'l1' },
      { winner: 'w2', loser: 'l2' },
    ];
    expect(placements({ winner: 'w2', loser: 'w1' }, semis)).toEqual(['w2', 'w1', 'l2', 'l1']);
    expect(() => placements({ winner: 'w2', loser: 'x' }, semis)).toThrow();
    expect(() => placements({ winner: 'w1', loser: 'w1' }, semis)).toThrow();
    expect(() => placements({ winner: 'w1', loser: 'w2' }, semis.slice(0, 1))).toThrow();
  });

  it('a two-player bracket is just a final', () => {
    const played = playBracket([a, b], () => null);
    expect(played.champion.id).toBe('b');
    expect(played.placements).toEqual(['b', 'a']);
  });
});
