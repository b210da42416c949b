import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mentionCandidates, resolveMentions } from '../../src/rules/social/mentions.js';

const FC = { numRuns: 500 };

/** A lookup over known names, case-insensitive as the platform's handle index is; ids are `id:<name>`. */
function lookupOf(names: readonly string[]): (name: string) => string | undefined {
  const byKey = new Map(names.map((name) => [name.toLowerCase(), `id:${name.toLowerCase()}`]));
  return (name) => byKey.get(name.toLowerCase());
}

const handleChar = fc.constantFrom(...'abcxyzABC019._');
const handle = fc
  .string({ unit: handleChar, minLength: 3, maxLength: 12 })
  .filter((h) => /^[A-Za-z0-9]/.test(h) && !h.endsWith('.'));
// Separators that may stand before an @: anything but a handle character.
const separator = fc.constantFrom(' ', '\n', '(', ', ', '! ', '"', '-');

describe('@mentions (src/rules/social/mentions.ts)', () => {
  it('finds @names after a non-handle character and nowhere else', () => {
    expect(mentionCandidates('@alice and (@bob), then "@carol_2"')).toEqual(['alice', 'bob', 'carol_2']);
    expect(mentionCandidates('write to me@example.com or x@bob or _@bob or 9@bob')).toEqual([]);
    expect(mentionCandidates('no mention here, nor @ alone')).toEqual([]);
  });

  it('reads at most 64 handle characters after the @', () => {
    expect(mentionCandidates(`@${'a'.repeat(70)}`)).toEqual(['a'.repeat(64)]);
  });

  it('treats a trailing period as punctuation only when the name with it is unknown', () => {
    expect(resolveMentions('well played @alice.', lookupOf(['alice']))).toEqual(['id:alice']);
    expect(resolveMentions('well played @alice...', lookupOf(['alice']))).toEqual(['id:alice']);
    expect(resolveMentions('hi @j.r.', lookupOf(['j.r.', 'j.r']))).toEqual(['id:j.r.']);
  });

  it('resolves each actor once, in order of first mention, and drops unknown names', () => {
    expect(resolveMentions('@Bob @alice @nobody @bob @ALICE', lookupOf(['alice', 'bob']))).toEqual([
      'id:bob',
      'id:alice',
    ]);
  });

  it('property: every known handle written after a separator is mentioned, once, in order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(handle, { minLength: 1, maxLength: 6, selector: (h) => h.toLowerCase() }),
        fc.array(separator, { minLength: 6, maxLength: 6 }),
        (handles, seps) => {
          const text = handles.map((h, i) => `${seps[i]}@${h}`).join(' word');
          expect(resolveMentions(text, lookupOf(handles))).toEqual(
            handles.map((h) => `id:${h.toLowerCase()}`),
          );
        },
      ),
      FC,
    );
  });

  it('property: a handle character glued before the @ (an e-mail address) mentions nobody', () => {
    fc.assert(
      fc.property(handle, handleChar, (name, glue) => {
        expect(resolveMentions(`mail me${glue}@${name} please`, lookupOf([name]))).toEqual([]);
      }),
      FC,
    );
  });

  it('property: the ids returned are distinct and each is an answer of the lookup', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80, unit: fc.constantFrom('@', ' ', '.', 'a', 'b', 'A', '_', 'x') }),
        (text) => {
          const known = ['ab', 'a.b', 'ba', 'x_a'];
          const answers = new Set(known.map((name) => lookupOf(known)(name)));
          const ids = resolveMentions(text, lookupOf(known));
          expect(new Set(ids).size).toBe(ids.length);
          for (const id of ids) expect(answers).toContain(id);
        },
      ),
      FC,
    );
  });
});
