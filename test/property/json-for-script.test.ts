import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonForScript } from '../../src/report/html/page.js';

/** The JSON of the whole string at once, as report.html embedded games.pgn before it was written in slices. */
function wholeJson(text: string): string {
  return JSON.stringify(text)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

describe("games.pgn's JSON in report.html, written in slices", () => {
  it('joins to the JSON of the whole text, whatever the slice size and the characters', () => {
    const char = fc.oneof(
      fc.constantFrom('<', '>', '"', '\\', '\n', '\u2028', '\u2029', '\u0000', '…', '😀', '\ud800', '\udc00'),
      fc.string({ maxLength: 3, unit: 'binary' }),
    );
    fc.assert(
      fc.property(
        fc.array(char, { maxLength: 60, size: 'max' }),
        fc.integer({ min: 1, max: 8 }),
        (chars, slice) => {
          const text = chars.join('');
          const pieces = [...jsonForScript(text, slice)];
          expect(pieces.join('')).toBe(wholeJson(text));
          expect(JSON.parse(pieces.join('').replace(/\\u003c/g, '<'))).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never ends a slice between the two halves of a surrogate pair', () => {
    const pieces = [...jsonForScript('a😀b😀', 2)];
    expect(pieces).toEqual(['"', 'a😀', 'b😀', '"']);
  });
});
