import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleProblem, verificationText } from '../../src/rules/identity/identity.js';
import {
  defaultAvatarUrl,
  displayNameProblem,
  EXTERNAL_NETWORK,
  externalHandleProblem,
  externalTextProblem,
  stripAt,
  verificationPosted,
} from '../../src/rules/identity/verification.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

/**
 * Verification through the mock external network (docs/rules.md, Verification; SPEC item 8, WIRE §2):
 * external handles, one forgiven `@`, the network's own limits (280, 50, 512) and the "contains" rule.
 */
const R = DEFAULT_RULESET;
const HANDLE_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';
const handleChar = fc.constantFrom(...HANDLE_CHARS);
const externalHandle = fc.string({ unit: handleChar, minLength: 1, maxLength: 32 });
const code = fc.stringMatching(/^[A-Z0-9]{12}$/);

describe('the external network', () => {
  it('has X’s limits, not ruleset numbers', () => {
    expect([
      EXTERNAL_NETWORK.postMax,
      EXTERNAL_NETWORK.displayNameMax,
      EXTERNAL_NETWORK.avatarUrlMax,
    ]).toEqual([280, 50, 512]);
  });
});

describe('externalHandleProblem', () => {
  it('accepts 1-32 handle characters, so every platform handle is also an external handle', () => {
    fc.assert(
      fc.property(externalHandle, (h) => {
        expect(externalHandleProblem(h, R)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(handleChar, fc.constantFrom('-', ' ', '@')), maxLength: 34 }),
        (h) => {
          if (handleProblem(h, R) === undefined) expect(externalHandleProblem(h, R)).toBeUndefined();
        },
      ),
    );
  });

  it('refuses an empty or too long handle, other characters and a non-string, naming the handle', () => {
    expect(externalHandleProblem('x', R)).toBeUndefined();
    expect(externalHandleProblem('', R)).toBe('handle: must be 1-32 characters');
    expect(externalHandleProblem('x'.repeat(33), R)).toBe('handle: must be 1-32 characters');
    expect(externalHandleProblem('@alice', R)).toBe('handle: only letters, digits, periods and underscores');
    expect(externalHandleProblem(null, R)).toBe('handle: must be a string');
  });
});

describe('stripAt', () => {
  it('strips one leading @, and only one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 10 }), (text) => {
        expect(stripAt(`@${text}`)).toBe(text);
        if (!text.startsWith('@')) expect(stripAt(text)).toBe(text);
      }),
    );
    expect(stripAt('@@alice')).toBe('@alice');
    expect(stripAt('ali@ce')).toBe('ali@ce');
  });
});

describe('externalTextProblem and displayNameProblem', () => {
  it('bound a post to 1-280 characters', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 300 }), (length) => {
        const ok = length >= 1 && length <= 280;
        expect(externalTextProblem('p'.repeat(length))).toBe(
          ok ? undefined : 'text: must be 1-280 characters',
        );
      }),
    );
    expect(externalTextProblem(280)).toBe('text: must be a string');
  });

  it('bound a display name to 1-50 characters, name the field, and allow none', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('display_name', 'name'),
        fc.integer({ min: 0, max: 60 }),
        (field, length) => {
          const ok = length >= 1 && length <= 50;
          expect(displayNameProblem(field, 'n'.repeat(length))).toBe(
            ok ? undefined : `${field}: must be 1-50 characters`,
          );
        },
      ),
    );
    expect(displayNameProblem('display_name', null)).toBeUndefined();
    expect(displayNameProblem('display_name', undefined)).toBeUndefined();
    expect(displayNameProblem('display_name', 5)).toBe('display_name: must be a string');
  });
});

describe('verificationPosted', () => {
  it('finds the exact text wrapped in any words, in any of the posts', () => {
    fc.assert(
      fc.property(
        externalHandle,
        code,
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }),
        (h, c, before, after, others) => {
          const expected = verificationText(h, c);
          expect(verificationPosted([...others, `${before}${expected}${after}`], expected)).toBe(true);
          expect(verificationPosted(others, expected)).toBe(others.some((t) => t.includes(expected)));
        },
      ),
    );
  });

  it('refuses another code, another case and no posts', () => {
    fc.assert(
      fc.property(externalHandle, code, code, (h, c, other) => {
        fc.pre(c !== other);
        expect(verificationPosted([verificationText(h, other)], verificationText(h, c))).toBe(false);
        expect(verificationPosted([verificationText(h, c).toLowerCase()], verificationText(h, c))).toBe(
          false,
        );
      }),
    );
    expect(verificationPosted([], verificationText('alice', 'ABCDEF123456'))).toBe(false);
  });
});

describe('defaultAvatarUrl', () => {
  it('is a URL under the network’s avatar base, one per handle without regard to case', () => {
    fc.assert(
      fc.property(externalHandle, (h) => {
        const url = defaultAvatarUrl(h);
        expect(url).toBe(`${EXTERNAL_NETWORK.avatarBase}${h.toLowerCase()}.png`);
        expect(defaultAvatarUrl(h.toUpperCase())).toBe(url);
        expect(url.length).toBeLessThanOrEqual(EXTERNAL_NETWORK.avatarUrlMax);
      }),
    );
  });
});
