import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bioProblem,
  githubFieldProblem,
  handleKey,
  handleProblem,
  tagsProblem,
  verificationText,
} from '../../src/rules/identity/identity.js';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

/**
 * Identity field rules (docs/rules.md, Identity; WIRE §2): handle 3-32 of `[A-Za-z0-9._]`, unique without
 * regard to case; bio <= 500; up to 10 tags of 1-32 characters; the GitHub fields <= 512; the verification
 * text. Each check returns one line naming the field, or undefined.
 */
const R = DEFAULT_RULESET;
const HANDLE_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._';

const handleChar = fc.constantFrom(...HANDLE_CHARS);
const validHandle = fc.string({ unit: handleChar, minLength: 3, maxLength: 32 });
/** Mostly handle characters, sometimes others (space, @, -, non-ASCII), any length around the bounds. */
const anyText = fc.string({
  unit: fc.oneof(
    { weight: 8, arbitrary: handleChar },
    { weight: 1, arbitrary: fc.constantFrom(' ', '@', '-', 'é', '/') },
  ),
  maxLength: 40,
});

/** The WIRE rule written out independently. */
function isValidHandle(text: string): boolean {
  return text.length >= 3 && text.length <= 32 && [...text].every((c) => HANDLE_CHARS.includes(c));
}

describe('handleProblem', () => {
  it('accepts every valid handle', () => {
    fc.assert(
      fc.property(validHandle, (h) => {
        expect(handleProblem(h, R)).toBeUndefined();
      }),
    );
  });

  it('refuses exactly the texts the rule refuses, with one line naming the handle', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const problem = handleProblem(text, R);
        expect(problem === undefined).toBe(isValidHandle(text));
        if (problem !== undefined) expect(problem).toMatch(/^handle: [^\n]+$/);
      }),
    );
  });

  it('draws the line at 3 and 32 characters and refuses a non-string', () => {
    expect(handleProblem('ab', R)).toBe('handle: must be 3-32 characters');
    expect(handleProblem('abc', R)).toBeUndefined();
    expect(handleProblem('a'.repeat(32), R)).toBeUndefined();
    expect(handleProblem('a'.repeat(33), R)).toBe('handle: must be 3-32 characters');
    expect(handleProblem('al-ice', R)).toBe('handle: only letters, digits, periods and underscores');
    expect(handleProblem(42, R)).toBe('handle: must be a string');
    expect(handleProblem(undefined, R)).toBe('handle: must be a string');
  });
});

describe('handleKey', () => {
  it('is idempotent, ignores case and keeps a valid handle valid', () => {
    fc.assert(
      fc.property(validHandle, (h) => {
        const key = handleKey(h);
        expect(handleKey(key)).toBe(key);
        expect(handleKey(h.toUpperCase())).toBe(key);
        expect(handleKey(h.toLowerCase())).toBe(key);
        expect(key).toHaveLength(h.length);
        expect(handleProblem(key, R)).toBeUndefined();
      }),
    );
  });

  it('gives two valid handles one key exactly when they differ only in case', () => {
    fc.assert(
      fc.property(validHandle, validHandle, (a, b) => {
        expect(handleKey(a) === handleKey(b)).toBe(a.toUpperCase() === b.toUpperCase());
      }),
    );
    expect(handleKey('Alice')).toBe(handleKey('alice'));
    expect(handleKey('alice')).not.toBe(handleKey('alice_'));
  });
});

describe('bioProblem', () => {
  it('accepts no bio and any bio up to 500 characters, refuses a longer one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 520 }), (bio) => {
        expect(bioProblem(bio, R)).toBe(bio.length > 500 ? 'bio: at most 500 characters' : undefined);
      }),
    );
    expect(bioProblem(undefined, R)).toBeUndefined();
    expect(bioProblem(null, R)).toBeUndefined();
    expect(bioProblem('x'.repeat(500), R)).toBeUndefined();
    expect(bioProblem('x'.repeat(501), R)).toBe('bio: at most 500 characters');
    expect(bioProblem(7, R)).toBe('bio: must be a string or null');
  });
});

describe('tagsProblem', () => {
  const goodTag = fc.string({ minLength: 1, maxLength: 32 });
  const badTag = fc.oneof(
    fc.constant(''),
    fc.string({ minLength: 33, maxLength: 40 }),
    fc.integer(),
    fc.constant(null),
  );

  it('accepts up to 10 tags of 1-32 characters', () => {
    fc.assert(
      fc.property(fc.array(goodTag, { maxLength: 10 }), (tags) => {
        expect(tagsProblem(tags, R)).toBeUndefined();
      }),
    );
    expect(tagsProblem(undefined, R)).toBeUndefined();
    expect(tagsProblem(['x'.repeat(32)], R)).toBeUndefined();
    expect(tagsProblem(['ok', 'x'.repeat(33)], R)).toBe('tags[1]: must be a string of 1-32 characters');
  });

  it('refuses more than 10 tags', () => {
    fc.assert(
      fc.property(fc.array(goodTag, { minLength: 11, maxLength: 14 }), (tags) => {
        expect(tagsProblem(tags, R)).toBe('tags: at most 10');
      }),
    );
  });

  it('names the first bad tag by its index', () => {
    fc.assert(
      fc.property(
        fc.array(goodTag, { maxLength: 9 }),
        badTag,
        fc.array(fc.oneof(goodTag, badTag), { maxLength: 10 }),
        (before, bad, after) => {
          // At most 10 tags in all, so the count is not what is refused; anything may follow the bad tag.
          const tags: unknown[] = [...before, bad, ...after].slice(0, 10);
          expect(tagsProblem(tags, R)).toBe(`tags[${before.length}]: must be a string of 1-32 characters`);
        },
      ),
    );
    expect(tagsProblem('chess', R)).toBe('tags: must be an array of strings');
  });
});

describe('githubFieldProblem', () => {
  it('caps each GitHub field at 512 characters and names the field it checks', () => {
    const field = fc.constantFrom('github_url', 'github_username', 'github_repo_url');
    fc.assert(
      fc.property(field, fc.integer({ min: 0, max: 600 }), (name, length) => {
        const problem = githubFieldProblem(name, 'u'.repeat(length), R);
        expect(problem).toBe(length > 512 ? `${name}: at most 512 characters` : undefined);
      }),
    );
    expect(githubFieldProblem('github_url', null, R)).toBeUndefined();
    expect(githubFieldProblem('github_url', undefined, R)).toBeUndefined();
    expect(githubFieldProblem('github_repo_url', 3, R)).toBe('github_repo_url: must be a string or null');
  });
});

describe('verificationText', () => {
  it('is the WIRE text, from which the handle and the code read back', () => {
    const code = fc.stringMatching(/^[A-Z0-9]{12}$/);
    fc.assert(
      fc.property(validHandle, code, (h, c) => {
        const text = verificationText(h, c);
        expect(text).toBe(`MoltChess agent verification: username=${h} code=${c}`);
        const read = /^MoltChess agent verification: username=(\S+) code=(\S+)$/.exec(text);
        expect(read?.slice(1)).toEqual([h, c]);
      }),
    );
  });
});
