import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, Fingerprint } from '../../src/kernel/canonical.js';

/**
 * Fingerprint.add writes a flat event's line without canonicalJson (its own key walk, strings and large
 * integers written directly): the text must be canonicalJson's to the byte, or every golden fingerprint moves.
 */
function lineOf(value: unknown): string {
  let text = '';
  const fingerprint = new Fingerprint((chunk) => (text += chunk));
  fingerprint.add(value);
  fingerprint.digest();
  return text;
}

const TRICKY: unknown[] = [
  'plain',
  '',
  'quote " and \\ backslash',
  'control \u0001 \n \t',
  'lone \ud800 half',
  'pair \ud83d\ude00 emoji',
  'é and \u2028',
  0,
  -0,
  7,
  -1_767_225_600_000,
  1_767_225_600_000,
  999_999,
  1_000_000,
  1_000_001,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  1_234_567.5,
  0.1,
  NaN,
  Infinity,
  -Infinity,
  true,
  false,
  null,
  undefined,
];

describe('a fingerprint line is canonicalJson of the value', () => {
  it('for every kind of primitive value, in events of one shape and of changing shapes', () => {
    for (const value of TRICKY) {
      const event = { type: 'tricky', t: 1_767_225_600_000, value, id: 'a' };
      expect(lineOf(event), String(value)).toBe(`${canonicalJson(event)}\n`);
      const reordered = { value, id: 'a', type: 'tricky', extra: 1 };
      expect(lineOf(reordered), String(value)).toBe(`${canonicalJson(reordered)}\n`);
    }
  });

  it('for objects that are not plain, nested values and lists', () => {
    class Shaped {
      type = 'shaped';
      b = 2;
      a = 1;
    }
    const inherited = Object.create({ hidden: 1 }) as Record<string, unknown>;
    inherited['type'] = 'inherited';
    for (const value of [new Shaped(), inherited, { type: 'nested', a: { c: 1, b: [2] } }, [3, 1], 'text', 5])
      expect(lineOf(value)).toBe(`${canonicalJson(value)}\n`);
  });

  it('for random flat objects, many lines through one fingerprint', () => {
    const primitive = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
    );
    const event = fc.record({
      type: fc.constantFrom('a', 'b'),
      t: fc.maxSafeNat(),
      x: primitive,
      y: primitive,
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 20 }), (events) => {
        let text = '';
        const fingerprint = new Fingerprint((chunk) => (text += chunk));
        for (const e of events) fingerprint.add(e);
        fingerprint.digest();
        expect(text).toBe(events.map((e) => `${canonicalJson(e)}\n`).join(''));
      }),
      { numRuns: 150 },
    );
  });
});

/**
 * Without a sink or checkpoints a fingerprint writes its lines straight into bytes (no text is kept): its
 * digest must be the one of the text path, which a sink or `exportable` selects, for any lines.
 */
function digestsOf(values: readonly unknown[]): { bytes: string; text: string; exportable: string } {
  const bytes = new Fingerprint();
  const text = new Fingerprint(() => undefined);
  const exportable = new Fingerprint(undefined, { exportable: true });
  for (const value of values) for (const fingerprint of [bytes, text, exportable]) fingerprint.add(value);
  return { bytes: bytes.digest(), text: text.digest(), exportable: exportable.digest() };
}

function expectSameDigests(values: readonly unknown[]): void {
  const { bytes, text, exportable } = digestsOf(values);
  expect(bytes).toBe(text);
  expect(exportable).toBe(text);
}

describe('the byte path hashes the same bytes as the text path', () => {
  it('for every kind of primitive value, nested values and values that are not objects', () => {
    expectSameDigests(
      TRICKY.map((value, i) => ({ type: 'tricky', t: 1_767_225_600_000 + i, value, id: 'a' })),
    );
    expectSameDigests([
      { type: 'nested', a: { c: 1, b: [2] } },
      [3, 1],
      'text',
      5,
      null,
      { é: 'clé', type: 'ü' },
    ]);
  });

  it('for lines longer than the buffer, and long lines of characters of several bytes', () => {
    const long = (unit: string, count: number) => ({ type: 'long', t: 1, text: unit.repeat(count) });
    expectSameDigests([
      long('a', 100_000),
      long('é', 40_000),
      long('\ud83d\ude00', 30_000),
      long('a', 5_000),
    ]);
    // Between short lines, where the buffer holds lines before and after them.
    const short = { type: 'short', t: 2, who: 'agent_0001' };
    expectSameDigests([
      short,
      long('€', 3_000),
      short,
      long('a', 70_000),
      short,
      long('x\u0001', 2_000),
      short,
    ]);
  });

  it('for many lines across buffer boundaries', () => {
    const values = Array.from({ length: 3_000 }, (_, i) => ({
      type: i % 3 === 0 ? 'move' : 'chat',
      t: 1_767_225_600_000 + i * 997,
      n: i - 1_500,
      text: i % 7 === 0 ? `héllo ${i} "quoted"` : `plain text ${'x'.repeat(i % 300)}`,
      ok: i % 2 === 0,
    }));
    expectSameDigests(values);
  });

  it('for random flat objects', () => {
    const primitive = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'binary', minLength: 1_000, maxLength: 30_000 }),
      fc.integer(),
      fc.maxSafeInteger(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
    );
    const event = fc.record({
      type: fc.constantFrom('a', 'b'),
      t: fc.maxSafeNat(),
      x: primitive,
      y: primitive,
    });
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => expectSameDigests(events)),
      { numRuns: 100 },
    );
  });
});
