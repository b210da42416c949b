import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RULESET,
  FIDE_K_FACTOR,
  ONBOARDING_PRESETS,
  resolveRuleset,
  type Ruleset,
} from '../../src/rules/ruleset.js';

/**
 * The ruleset (docs/architecture.md, "Changing one rule", step 2): every number of the rules in
 * `DEFAULT_RULESET`, a scenario's deep-partial override merged over it by `resolveRuleset`, which names
 * each problem on one line by its field path.
 */

/**
 * Every leaf of the default ruleset by its path below `ruleset`: a number, string, boolean or list, and a
 * policy with a `mode` (an override replaces a policy whole, so it is one value).
 */
function leaves(node: unknown, path: string[] = []): Array<{ path: string[]; value: unknown }> {
  if (typeof node === 'object' && node !== null && !Array.isArray(node) && !('mode' in node))
    return Object.entries(node).flatMap(([key, value]) => leaves(value, [...path, key]));
  return [{ path, value: node }];
}

/** `{ a: { b: value } }` for the path `a.b`. */
function overrideAt(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

function valueAt(ruleset: Ruleset, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], ruleset);
}

const LEAVES = leaves(DEFAULT_RULESET);
const NUMBER_LEAVES = LEAVES.filter((leaf) => typeof leaf.value === 'number');

function expectOneLineErrors(errors: readonly string[]): void {
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(error).toMatch(/^ruleset(\.[\w]+)*: [^\n]+$/);
}

describe('DEFAULT_RULESET', () => {
  it('passes its own checks and comes back unchanged for an empty override', () => {
    const snapshot = structuredClone(DEFAULT_RULESET);
    for (const overrides of [{}, undefined]) {
      const { ruleset, errors } = resolveRuleset(overrides);
      expect(errors).toEqual([]);
      expect(ruleset).toEqual(DEFAULT_RULESET);
    }
    expect(DEFAULT_RULESET).toEqual(snapshot);
  });

  it('holds the spec’s research phase, the 10% bounty fee and a fixed K of 40', () => {
    expect(DEFAULT_RULESET.research).toEqual(ONBOARDING_PRESETS.spec);
    expect(DEFAULT_RULESET.bounty.systemFeeBps).toBe(1000);
    expect(DEFAULT_RULESET.elo.kFactor).toEqual({ mode: 'fixed', k: 40 });
  });
});

describe('resolveRuleset', () => {
  it('accepts any leaf overridden with its own default value, and changes nothing', () => {
    expect(LEAVES.length).toBeGreaterThan(50);
    for (const { path, value } of LEAVES) {
      const { ruleset, errors } = resolveRuleset(overrideAt(path, value));
      expect(errors, path.join('.')).toEqual([]);
      expect(ruleset).toEqual(DEFAULT_RULESET);
    }
  });

  it('changes exactly the leaf it overrides, and leaves the default untouched', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NUMBER_LEAVES),
        fc.integer({ min: 1, max: 5 }),
        ({ path, value }, step) => {
          const changed = (value as number) + step;
          const { ruleset } = resolveRuleset(overrideAt(path, changed));
          expect(valueAt(ruleset, path)).toBe(changed);
          for (const other of LEAVES.filter((leaf) => leaf.path.join('.') !== path.join('.')))
            expect(valueAt(ruleset, other.path)).toEqual(other.value);
          expect(valueAt(DEFAULT_RULESET, path)).toBe(value);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses a value of the wrong type with one line naming its path, and keeps the default', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NUMBER_LEAVES),
        fc.oneof(fc.string(), fc.boolean()),
        ({ path, value }, bad) => {
          const { ruleset, errors } = resolveRuleset(overrideAt(path, bad));
          expectOneLineErrors(errors);
          expect(errors).toEqual([
            `ruleset.${path.join('.')}: expected a number, got ${JSON.stringify(bad)}`,
          ]);
          expect(valueAt(ruleset, path)).toBe(value);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('refuses an unknown rule, a scalar for a group and an out-of-range number, each on one line', () => {
    const cases: Array<[unknown, string]> = [
      [{ gmae: {} }, 'ruleset.gmae: unknown rule'],
      [{ game: { turnLimit: 1 } }, 'ruleset.game.turnLimit: unknown rule'],
      [{ game: 5 }, 'ruleset.game: expected an object'],
      [{ game: { moveLimitPlies: -1 } }, 'ruleset.game.moveLimitPlies: must be a positive integer'],
      [{ game: { turnLimitMs: 1.5 } }, 'ruleset.game.turnLimitMs: must be a positive integer'],
      [
        { bounty: { systemFeeBps: 10_001 } },
        'ruleset.bounty.systemFeeBps: must be basis points from 0 to 10000',
      ],
      [
        { tournaments: { systemFeeBps: 6000, organizerFeeBps: 5000 } },
        'ruleset.tournaments: the two fees exceed 100%',
      ],
      [
        { tournaments: { sizes: [8, 12] } },
        'ruleset.tournaments.sizes: must be a list of powers of two from 2 to 256',
      ],
      [{ api: { quota: 'sometimes' } }, 'ruleset.api.quota: must be one of enforce, warn, off'],
      [{ elo: { kFactor: { k: 0 } } }, 'ruleset.elo.kFactor.k: must be a positive integer'],
      [
        { social: { tiers: [{ name: 'a', minScore: 5 }] } },
        'ruleset.social.tiers: a list of { name, minScore } starting at 0 with rising minScore',
      ],
      [{ research: { minLikes: -2 } }, 'ruleset.research: counts must be integers >= 0'],
    ];
    for (const [overrides, message] of cases) {
      const { errors } = resolveRuleset(overrides);
      expectOneLineErrors(errors);
      expect(errors, JSON.stringify(overrides)).toContain(message);
    }
  });

  it('names a research preset, and refuses a name that is none', () => {
    expect(resolveRuleset({ research: 'strict' }).ruleset.research).toEqual(ONBOARDING_PRESETS.strict);
    expect(resolveRuleset({ research: 'spec' }).ruleset.research).toEqual(ONBOARDING_PRESETS.spec);
    const { errors } = resolveRuleset({ research: 'lenient' });
    expectOneLineErrors(errors);
    expect(errors[0]).toMatch(/^ruleset\.research: "lenient" is not a preset/);
  });

  it('replaces a K-factor policy whole, and merges over a given base', () => {
    const fide = resolveRuleset({ elo: { kFactor: FIDE_K_FACTOR } });
    expect(fide.errors).toEqual([]);
    expect(fide.ruleset.elo.kFactor).toEqual(FIDE_K_FACTOR);
    expect(resolveRuleset({ elo: { kFactor: { mode: 'elastic' } } }).errors).toContain(
      'ruleset.elo.kFactor.mode: must be "fixed" or "fide"',
    );
    const base = fide.ruleset;
    const over = resolveRuleset({ game: { moveLimitPlies: 80 } }, base);
    expect(over.errors).toEqual([]);
    expect(over.ruleset.elo.kFactor).toEqual(FIDE_K_FACTOR);
    expect(over.ruleset.game.moveLimitPlies).toBe(80);
  });
});
