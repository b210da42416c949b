import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  eligibilityProblem,
  type EligibilityFilters,
  type EntrantFacts,
} from '../../src/rules/chess/eligibility.js';

const FC = { numRuns: 1000 };

const OPEN: EligibilityFilters = {
  verifiedOnly: false,
  eloMin: null,
  eloMax: null,
  minGamesPlayed: null,
  maxGamesPlayed: null,
  requiredTags: [],
};
const ALICE: EntrantFacts = { verified: true, elo: 1200, gamesPlayed: 30, tags: ['Tactical', 'endgame'] };

function filters(changes: Partial<EligibilityFilters>): EligibilityFilters {
  return Object.assign({}, OPEN, changes);
}

function entrant(changes: Partial<EntrantFacts>): EntrantFacts {
  return Object.assign({}, ALICE, changes);
}

// A small tag alphabet so that required tags and an entrant's tags often meet, in either case.
const tag = fc.constantFrom('tactical', 'Tactical', 'endgame', 'ENDGAME', 'blitz', 'opening');
const bound = fc.option(fc.integer({ min: 0, max: 3000 }), { nil: null });

const filtersArb: fc.Arbitrary<EligibilityFilters> = fc.record({
  verifiedOnly: fc.boolean(),
  eloMin: bound,
  eloMax: bound,
  minGamesPlayed: bound,
  maxGamesPlayed: bound,
  requiredTags: fc.array(tag, { maxLength: 3 }),
});

const entrantArb: fc.Arbitrary<EntrantFacts> = fc.record({
  verified: fc.boolean(),
  elo: fc.integer({ min: 0, max: 3000 }),
  gamesPlayed: fc.integer({ min: 0, max: 3000 }),
  tags: fc.array(tag, { maxLength: 4 }),
});

/** The rule as WIRE §7 states it, written apart from the code under test: every filter met, bounds inclusive. */
function eligibleByDefinition(e: EligibilityFilters, who: EntrantFacts): boolean {
  const within = (value: number, min: number | null, max: number | null) =>
    (min === null || value >= min) && (max === null || value <= max);
  const lowerTags = who.tags.map((t) => t.toLowerCase());
  return (
    (!e.verifiedOnly || who.verified) &&
    within(who.elo, e.eloMin, e.eloMax) &&
    within(who.gamesPlayed, e.minGamesPlayed, e.maxGamesPlayed) &&
    e.requiredTags.every((t) => lowerTags.includes(t.toLowerCase()))
  );
}

describe('tournament eligibility (src/rules/chess/eligibility.ts)', () => {
  it('lets anyone into a tournament without filters', () => {
    fc.assert(
      fc.property(entrantArb, (who) => {
        expect(eligibilityProblem(OPEN, who)).toBeUndefined();
      }),
      FC,
    );
  });

  it('property: an entrant is refused exactly when some filter is unmet', () => {
    fc.assert(
      fc.property(filtersArb, entrantArb, (e, who) => {
        expect(eligibilityProblem(e, who) === undefined).toBe(eligibleByDefinition(e, who));
      }),
      FC,
    );
  });

  it('property: Elo and game-count bounds are inclusive at both ends', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 }), (elo, games) => {
        expect(eligibilityProblem(filters({ eloMin: elo, eloMax: elo }), entrant({ elo }))).toBeUndefined();
        expect(eligibilityProblem(filters({ eloMin: elo + 1 }), entrant({ elo }))).toBe(
          `your Elo ${elo} is below the minimum ${elo + 1}`,
        );
        expect(eligibilityProblem(filters({ eloMax: elo - 1 }), entrant({ elo }))).toBe(
          `your Elo ${elo} is above the maximum ${elo - 1}`,
        );
        expect(
          eligibilityProblem(
            filters({ minGamesPlayed: games, maxGamesPlayed: games }),
            entrant({ gamesPlayed: games }),
          ),
        ).toBeUndefined();
        expect(
          eligibilityProblem(filters({ minGamesPlayed: games + 1 }), entrant({ gamesPlayed: games })),
        ).toMatch(/at least/);
        expect(
          eligibilityProblem(filters({ maxGamesPlayed: games - 1 }), entrant({ gamesPlayed: games })),
        ).toMatch(/at most/);
      }),
      FC,
    );
  });

  it('keeps unverified agents out of a verified-only tournament', () => {
    expect(eligibilityProblem(filters({ verifiedOnly: true }), entrant({ verified: false }))).toBe(
      'this tournament is for verified agents only',
    );
    expect(eligibilityProblem(filters({ verifiedOnly: true }), entrant({ verified: true }))).toBeUndefined();
  });

  it('needs every required tag, compared without regard to case, and names the missing ones', () => {
    expect(eligibilityProblem(filters({ requiredTags: ['tactical', 'ENDGAME'] }), ALICE)).toBeUndefined();
    expect(eligibilityProblem(filters({ requiredTags: ['tactical', 'blitz', 'Opening'] }), ALICE)).toBe(
      'missing required tags: blitz, Opening',
    );
  });

  it('reports the first unmet filter, in the order verified, Elo, games, tags', () => {
    const everythingUnmet = filters({
      verifiedOnly: true,
      eloMin: 2000,
      minGamesPlayed: 100,
      requiredTags: ['blitz'],
    });
    const newcomer = entrant({ verified: false, elo: 1000, gamesPlayed: 0, tags: [] });
    expect(eligibilityProblem(everythingUnmet, newcomer)).toMatch(/verified/);
    expect(eligibilityProblem(everythingUnmet, entrant({ elo: 1000, gamesPlayed: 0, tags: [] }))).toMatch(
      /Elo/,
    );
    expect(eligibilityProblem(everythingUnmet, entrant({ elo: 2000, gamesPlayed: 0, tags: [] }))).toMatch(
      /games/,
    );
    expect(eligibilityProblem(everythingUnmet, entrant({ elo: 2000, gamesPlayed: 100, tags: [] }))).toMatch(
      /tags/,
    );
  });
});
