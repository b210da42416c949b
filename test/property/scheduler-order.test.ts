import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/kernel/clock.js';
import { Scheduler } from '../../src/kernel/scheduler.js';

const START = 1_775_001_600_000; // a real instant: due times past the small-integer range, as in a run

/** One step of a queue's life: schedule at an offset, cancel the n-th id handed out, or pop up to an offset. */
const step = fc.oneof(
  fc.record({ op: fc.constant('at' as const), offset: fc.nat(40) }),
  fc.record({ op: fc.constant('cancel' as const), nth: fc.nat(60) }),
  fc.record({ op: fc.constant('pop' as const), offset: fc.nat(40) }),
);

describe('scheduler order', () => {
  it('hands out the live events by due time, then scheduling order, whatever was cancelled between (property)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 120 }), (steps) => {
        const queue = new Scheduler<number>(new VirtualClock(START));
        // The model: every event scheduled, with its id, due time and whether it left the queue (cancelled or handed out).
        const model: { id: number; dueMs: number; cancelled: boolean }[] = [];
        const popped: number[] = [];
        const expected: number[] = [];
        for (const s of steps) {
          if (s.op === 'at') {
            const dueMs = Math.max(START + s.offset * 1000, queue.clock.nowMs);
            model.push({ id: queue.at(START + s.offset * 1000, model.length), dueMs, cancelled: false });
          } else if (s.op === 'cancel') {
            // Only a queued event is cancelled: the queue counts a cancel of one already handed out (see `size`).
            const event = model[s.nth];
            if (event && !event.cancelled) {
              queue.cancel(event.id);
              event.cancelled = true;
            }
          } else {
            const until = START + s.offset * 1000;
            const due = model
              .filter((e) => !e.cancelled && e.dueMs <= until)
              .sort((a, b) => a.dueMs - b.dueMs || a.id - b.id);
            for (const e of due) e.cancelled = true; // handed out: gone from the model's queue
            expected.push(...due.map((e) => e.id));
            // Both ways out: the event, or its payload alone (what a world's loop takes).
            if (s.offset % 2 === 0)
              for (let e = queue.popDue(until); e; e = queue.popDue(until)) popped.push(e.payload);
            else
              for (let p = queue.popDuePayload(until); p !== undefined; p = queue.popDuePayload(until))
                popped.push(p);
          }
        }
        expect(popped).toEqual(expected);
        expect(queue.size).toBe(model.filter((e) => !e.cancelled).length);
      }),
      { seed: 32, numRuns: 300 },
    );
  });
});
