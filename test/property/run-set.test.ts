import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RunSet } from '../../src/kernel/run-set.js';

/** The runs a set of naturals falls into: maximal stretches of consecutive members. */
function runsOf(members: ReadonlySet<number>): number {
  let runs = 0;
  for (const value of members) if (!members.has(value - 1)) runs++;
  return runs;
}

describe('RunSet', () => {
  it('answers as a Set of the same numbers, added in any order, and keeps the fewest runs', () => {
    // Small values so that adds collide, touch and join runs often; a bias to ascending adds as the feed makes.
    const value = fc.oneof(fc.nat(40), fc.nat(2000));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 300, size: 'max' }), fc.boolean(), (values, ascending) => {
        const adds = ascending ? [...values].sort((a, b) => a - b) : values;
        const set = new RunSet();
        const reference = new Set<number>();
        for (const v of adds) {
          expect(set.add(v)).toBe(!reference.has(v));
          reference.add(v);
        }
        const probes = [...reference].flatMap((v) => [v - 1, v, v + 1]).filter((v) => v >= 0);
        const wrong = probes.filter((probe) => set.has(probe) !== reference.has(probe));
        expect(wrong).toEqual([]);
        expect(set.runs).toBe(runsOf(reference));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps an ascending fill with gaps as one run per gap', () => {
    const set = new RunSet();
    for (let v = 0; v < 10_000; v++) if (v % 1000 !== 999) set.add(v);
    expect(set.runs).toBe(10);
    expect(set.has(999)).toBe(false);
    expect(set.has(998)).toBe(true);
  });
});
