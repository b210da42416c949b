import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSet } from '../../src/kernel/id-set.js';

/** Ids near each other (as a scheduler hands them out), near page edges, and past 2^32. */
const idArb = fc.oneof(
  fc.integer({ min: 0, max: 20_000 }),
  fc.integer({ min: 0, max: 8 }).map((k) => k * 4096 + (k % 2 === 0 ? 0 : 4095)),
  fc.integer({ min: 2 ** 32 - 5000, max: 2 ** 32 + 5000 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
);
const opArb = fc.tuple(fc.constantFrom('add', 'delete', 'has' as const), idArb);

describe('IdSet: a set of ids as paged bits', () => {
  it('answers as a Set does after any sequence of adds and deletes, and lists its members ascending', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 300 }), (ops) => {
        const ours = new IdSet();
        const model = new Set<number>();
        for (const [op, id] of ops) {
          if (op === 'add') {
            ours.add(id);
            model.add(id);
          } else if (op === 'delete') {
            ours.delete(id);
            model.delete(id);
          } else expect(ours.has(id)).toBe(model.has(id));
          expect(ours.size).toBe(model.size);
        }
        for (const [, id] of ops) expect(ours.has(id)).toBe(model.has(id));
        expect([...ours.ascending()]).toEqual([...model].sort((a, b) => a - b));
      }),
    );
  });
});
