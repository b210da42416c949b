import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/kernel/canonical.js';
import { CheckpointError, Field, runToEnd, type Json } from '../../src/kernel/checkpoint.js';
import { VirtualClock } from '../../src/kernel/clock.js';
import { Scheduler } from '../../src/kernel/scheduler.js';
import { mutateJson, replacementJson } from '../helpers/json-mutate.js';

const START = 1_000_000;
const readPayload = (f: Field): string => f.str(16);

/** A queue with ties at one instant, a cancelled event, and the clock moved past a few popped events. */
function busyQueue(): Scheduler<string> {
  const s = new Scheduler<string>(new VirtualClock(START));
  for (let i = 0; i < 40; i++) s.at(START + ((i * 7919) % 13) * 1000, `e${i}`);
  s.cancel(3);
  s.cancel(17);
  for (let i = 0; i < 5; i++) s.popDue(START + 5000);
  return s;
}

function loaded(saved: Json, nowMs: number): Scheduler<string> {
  const s = new Scheduler<string>(new VirtualClock(nowMs));
  runToEnd(s.load(Field.root(JSON.parse(JSON.stringify(saved))), readPayload));
  return s;
}

/** Everything the queue hands out from now on, with the ids new events get. */
function drain(s: Scheduler<string>): unknown[] {
  const out: unknown[] = [s.size, s.at(START + 4000, 'late'), s.at(START + 4000, 'late2')];
  s.cancel(out[1] as number);
  for (let e = s.popDue(Infinity); e; e = s.popDue(Infinity)) out.push([e.id, e.dueMs, e.payload]);
  return out;
}

describe('scheduler checkpoint', () => {
  it('a loaded queue hands out the same events in the same order, and gives new events the same ids', () => {
    const original = busyQueue();
    const saved = original.save((p) => p);
    const events = (saved as { events: Array<{ id: number; payload?: string }> }).events;
    const cancelled = events.filter((e) => e.id === 3 || e.id === 17);
    expect(cancelled.length).toBeGreaterThan(0); // still queued, so saved: without the payload nothing reads
    expect(cancelled.every((e) => e.payload === undefined)).toBe(true);
    const copy = loaded(saved, original.clock.nowMs);
    expect(canonicalJson(copy.save((p) => p))).toBe(canonicalJson(saved));
    expect(drain(copy)).toEqual(drain(original));
  });

  it('refuses a tampered queue with a CheckpointError naming the field', () => {
    const queue = busyQueue();
    const saved = queue.save((p) => p) as { events: Array<Record<string, Json>>; [k: string]: Json };
    const now = queue.clock.nowMs;
    const cases: Array<[(s: typeof saved) => void, RegExp, number?]> = [
      [(s) => (s['extra'] = 1), /^checkpoint\.extra: is not a field/],
      [(s) => (s.events[1]!['seq'] = s.events[0]!['seq']!), /^checkpoint\.events\[1\]\.seq: is taken/],
      [(s) => (s.events[0]!['id'] = 999), /^checkpoint\.events\[0\]\.id: must be an integer in 0\.\.39/],
      [(s) => (s.events[0]!['payload'] = 7), /^checkpoint\.events\[0\]\.payload: must be a string/],
      [(s) => (s['nextSeq'] = -1), /^checkpoint\.nextSeq: must be an integer/],
      [(s) => (s['cancelled'] = [17, 17]), /^checkpoint\.cancelled: 17 is listed twice/],
      [() => undefined, /^checkpoint\.events\[0\]\.dueMs: must be an integer in/, now + 10_000],
    ];
    for (const [tamper, message, at] of cases) {
      const copy = JSON.parse(JSON.stringify(saved)) as typeof saved;
      tamper(copy);
      expect(() => loaded(copy, at ?? now)).toThrow(message);
    }
  });

  it('throws nothing but a CheckpointError for a queue changed at a random spot', () => {
    const queue = busyQueue();
    const saved = queue.save((p) => p);
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
        replacementJson,
        (path, replacement) => {
          try {
            loaded(mutateJson(saved, path, replacement), queue.clock.nowMs);
          } catch (error) {
            if (!(error instanceof CheckpointError)) throw error;
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
