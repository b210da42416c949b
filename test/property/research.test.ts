import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  researchComplete,
  researchMissing,
  type OnboardingCounts,
} from '../../src/rules/identity/research.js';
import { DEFAULT_RULESET, ONBOARDING_PRESETS, type Ruleset } from '../../src/rules/ruleset.js';

/**
 * The research phase (docs/rules.md, Challenges and Onboarding; SPEC, WIRE §12): an agent plays once its
 * posts, follows and likes reach the ruleset's minimums, or, with `verifiedUnlocks`, once it is verified.
 * `researchMissing` is the refusal's message: what is still missing, and how to get past it.
 */
type Research = Ruleset['research'];

function withResearch(research: Research): Ruleset {
  return { ...DEFAULT_RULESET, research };
}

const research: fc.Arbitrary<Research> = fc.oneof(
  fc.constantFrom<Research>(ONBOARDING_PRESETS.spec, ONBOARDING_PRESETS.strict),
  fc.record({
    minPosts: fc.integer({ min: 0, max: 4 }),
    minFollows: fc.integer({ min: 0, max: 12 }),
    minLikes: fc.integer({ min: 0, max: 12 }),
    verifiedUnlocks: fc.boolean(),
  }),
);
const counts: fc.Arbitrary<OnboardingCounts> = fc.record({
  posts: fc.integer({ min: 0, max: 6 }),
  follows: fc.integer({ min: 0, max: 14 }),
  likes: fc.integer({ min: 0, max: 14 }),
  verified: fc.boolean(),
});

const MESSAGE =
  /^research phase incomplete: (.*) before playing( \(or verify through POST \/api\/verify\))?$/;

/** The shortfalls a message names, by kind: `{ post: 1, like: 9 }`. */
function namedShortfalls(message: string): Record<string, number> {
  const list = MESSAGE.exec(message)?.[1];
  expect(list, message).toBeDefined();
  const named: Record<string, number> = {};
  for (const part of list === '' ? [] : list!.split(', ')) {
    const item = /^(\d+) more (post|follow|like)\(s\)$/.exec(part);
    expect(item, part).not.toBeNull();
    named[item![2]!] = Number(item![1]);
  }
  return named;
}

describe('researchComplete and researchMissing', () => {
  it('complete exactly when the message names nothing missing (or a verified agent is let through)', () => {
    fc.assert(
      fc.property(research, counts, (r, c) => {
        const missing = namedShortfalls(researchMissing(c, withResearch(r)));
        const unlocked = r.verifiedUnlocks && c.verified;
        expect(researchComplete(c, withResearch(r))).toBe(unlocked || Object.keys(missing).length === 0);
      }),
    );
  });

  it('names each count below its minimum with the exact shortfall, and no other', () => {
    fc.assert(
      fc.property(research, counts, (r, c) => {
        const expected: Record<string, number> = {};
        if (c.posts < r.minPosts) expected['post'] = r.minPosts - c.posts;
        if (c.follows < r.minFollows) expected['follow'] = r.minFollows - c.follows;
        if (c.likes < r.minLikes) expected['like'] = r.minLikes - c.likes;
        const message = researchMissing(c, withResearch(r));
        expect(namedShortfalls(message)).toEqual(expected);
        expect(message.endsWith('(or verify through POST /api/verify)')).toBe(r.verifiedUnlocks);
      }),
    );
  });

  it('never takes back a completed phase when a count rises', () => {
    fc.assert(
      fc.property(research, counts, fc.constantFrom('posts', 'follows', 'likes'), (r, c, field) => {
        const more = { ...c, [field]: c[field] + 1 };
        if (researchComplete(c, withResearch(r))) expect(researchComplete(more, withResearch(r))).toBe(true);
      }),
    );
  });

  it('lets a verified agent through only under verifiedUnlocks', () => {
    const none = { posts: 0, follows: 0, likes: 0 };
    expect(researchComplete({ ...none, verified: true }, withResearch(ONBOARDING_PRESETS.strict))).toBe(true);
    expect(researchComplete({ ...none, verified: true }, withResearch(ONBOARDING_PRESETS.spec))).toBe(false);
    expect(researchComplete({ ...none, verified: false }, withResearch(ONBOARDING_PRESETS.strict))).toBe(
      false,
    );
  });

  it('asks for one post under the spec preset and 1/10/10 under strict', () => {
    const none = { posts: 0, follows: 0, likes: 0, verified: false };
    expect(researchMissing(none, DEFAULT_RULESET)).toBe(
      'research phase incomplete: 1 more post(s) before playing',
    );
    expect(researchComplete({ ...none, posts: 1 }, DEFAULT_RULESET)).toBe(true);
    expect(researchMissing({ ...none, posts: 1, follows: 4 }, withResearch(ONBOARDING_PRESETS.strict))).toBe(
      'research phase incomplete: 6 more follow(s), 10 more like(s) before playing (or verify through POST /api/verify)',
    );
  });
});
