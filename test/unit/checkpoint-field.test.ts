import { describe, expect, it } from 'vitest';
import { CheckpointError, Field, runToEnd } from '../../src/kernel/checkpoint.js';

describe('checkpoint fields (a closed schema over untrusted JSON)', () => {
  it('reads typed values and names the path of the first wrong one', () => {
    const root = Field.root({ a: 3, b: 'x', c: [1, 2], d: null, e: true });
    const read = root.record((get) => ({
      a: get('a').nat(),
      b: get('b').str(4),
      c: get('c').list((f) => f.int(0, 9)),
      d: get('d').nullOr((f) => f.num()),
      e: get('e').bool(),
    }));
    expect(read).toEqual({ a: 3, b: 'x', c: [1, 2], d: null, e: true });
    expect(() => Field.root({ c: [1, 'two'] }).record((get) => get('c').list((f) => f.int()))).toThrow(
      'checkpoint.c[1]: must be an integer',
    );
    expect(() => Field.root({ a: -1 }).record((get) => get('a').nat())).toThrow(CheckpointError);
    expect(() => Field.root({ a: 1.5 }).record((get) => get('a').nat())).toThrow('checkpoint.a');
    expect(() => Field.root({ a: 'y' }).record((get) => get('a').oneOf(['x']))).toThrow('one of x');
  });

  it('refuses a key its loader did not read, __proto__ included', () => {
    expect(() => Field.root({ a: 1, path: '/bin/sh' }).record((get) => get('a').nat())).toThrow(
      'checkpoint.path: is not a field this version reads',
    );
    const parsed = JSON.parse('{"a":1,"__proto__":{"x":1}}') as unknown;
    expect(() => Field.root(parsed).record((get) => get('a').nat())).toThrow('checkpoint.__proto__');
    expect(Field.root({ a: 1 }).record((get, has) => (has('b') ? 2 : get('a').nat()))).toBe(1);
  });

  it('walks dictionaries and lists one row at a time, checking each key', () => {
    const rows = [...Field.root({ x1: 1, x2: 2 }).entries((k) => /^x\d$/.test(k))].map(([k, f]) => [
      k,
      f.nat(),
    ]);
    expect(rows).toEqual([
      ['x1', 1],
      ['x2', 2],
    ]);
    expect(() => [...Field.root({ 'bad key': 1 }).entries((k) => /^x\d$/.test(k))]).toThrow(
      'is not a valid key',
    );
    function* counted(): Generator<void, number> {
      let n = 0;
      for (const item of Field.root([5, 6, 7]).items()) {
        n += item.nat();
        yield;
      }
      return n;
    }
    expect(runToEnd(counted())).toBe(18);
  });
});
