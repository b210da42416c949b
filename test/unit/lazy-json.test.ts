import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LazyJson, type LazyMember } from '../../src/kernel/lazy-json.js';
import { CheckpointError, Field } from '../../src/kernel/checkpoint.js';

/** An object's text member by member (repeated keys allowed), and the LazyJson over the same text. */
function objectOf(pairs: [string, unknown][]): { text: string; lazy: LazyJson } {
  let text = '{';
  const members: LazyMember[] = [];
  for (const [i, [key, value]] of pairs.entries()) {
    text += `${i === 0 ? '' : ','}${JSON.stringify(key)}: `;
    const start = text.length;
    text += JSON.stringify(value);
    members.push({ key, start, end: text.length });
  }
  text += '}';
  const source = text;
  return { text, lazy: new LazyJson('object', members, (start, end) => source.slice(start, end)) };
}

function listOf(values: unknown[]): { text: string; lazy: LazyJson } {
  const { text, lazy } = objectOf(values.map((value, i) => [String(i), value]));
  return { text, lazy: new LazyJson('list', lazy.members, (start, end) => text.slice(start, end)) };
}

/** Every row of a dictionary-shaped Field, as the loaders walk it. */
function rowsOf(field: Field): [string, unknown][] {
  return [...field.entries()].map(([key, row]) => [key, row.value]);
}

const keys = fc.oneof(
  fc.constantFrom('0', '7', '10', '4294967294', '4294967295', '01', '-1', '__proto__', 'b', 'a'),
  fc.string({ maxLength: 4 }),
);

describe('LazyJson read through Field', () => {
  it('gives a record the keys, order and last-of-repeated values JSON.parse gives', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, fc.jsonValue({ maxDepth: 2 })), { maxLength: 12 }), (pairs) => {
        const { text, lazy } = objectOf(pairs);
        const parsed = JSON.parse(text) as Record<string, unknown>;
        expect(lazy.keys()).toEqual(Object.keys(parsed));
        expect(rowsOf(Field.root(lazy))).toEqual(rowsOf(Field.root(parsed)));
        expect(lazy.toPlain()).toEqual(parsed);
      }),
      { numRuns: 200 },
    );
  });

  it('reads a list item by item, and refuses the wrong shape as a plain value is refused', () => {
    const { lazy } = listOf([{ a: 1 }, 2, 'three']);
    expect(Field.root(lazy).list((item) => item.value)).toEqual([{ a: 1 }, 2, 'three']);
    expect(() => Field.root(lazy).record(() => 0)).toThrow(
      new CheckpointError('checkpoint: must be a record'),
    );
    const record = objectOf([['a', 1]]).lazy;
    expect(() => Field.root(record).list(() => 0)).toThrow(new CheckpointError('checkpoint: must be a list'));
    expect(() => Field.root(record).nat()).toThrow(CheckpointError);
  });

  it('refuses a key its loader did not read, and reads an absent key as absent', () => {
    const { lazy } = objectOf([
      ['elo', 1200],
      ['__proto__', { polluted: true }],
    ]);
    const readElo = (get: (key: string) => Field, has: (key: string) => boolean) => ({
      elo: get('elo').nat(),
      bio: has('bio') ? get('bio').str() : null,
    });
    expect(() => Field.root(lazy).record(readElo)).toThrow(
      new CheckpointError('checkpoint.__proto__: is not a field this version reads'),
    );
    const clean = objectOf([['elo', 1200]]).lazy;
    expect(Field.root(clean).record(readElo)).toEqual({ elo: 1200, bio: null });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('parses a member each time it is read, so a row read and dropped is not kept', () => {
    const { lazy } = listOf([{ row: 1 }]);
    const first = [...Field.root(lazy).items()][0]!.value;
    const second = [...Field.root(lazy).items()][0]!.value;
    expect(first).toEqual(second);
    expect(first).not.toBe(second);
  });
});
