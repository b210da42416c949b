import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refusalsOverTime, timeAxis, round3, type BinRow } from '../../src/report/html/series.js';
import { MinuteCounts } from '../../src/sim/minute-counts.js';

/** The chart rows binned from every refusal's own time, one at a time: what a log of each refusal gave. */
function rowsOfEachTime(
  axis: ReturnType<typeof timeAxis>,
  refusals: ReadonlyArray<{ atMs: number; action: string }>,
): BinRow[] {
  const sums = new Map<string, { hour: number; kind: string; value: number }>();
  for (const { atMs, action } of refusals) {
    const bin = Math.min(axis.bins - 1, Math.max(0, Math.floor((atMs - axis.startMs) / axis.binMs)));
    const hour = round3((bin * axis.binMs) / 3_600_000);
    const row = sums.get(`${hour}/${action}`) ?? { hour, kind: action, value: 0 };
    row.value++;
    sums.set(`${hour}/${action}`, row);
  }
  return [...sums.values()].sort((a, b) => a.hour - b.hour || (a.kind < b.kind ? -1 : 1));
}

describe('MinuteCounts', () => {
  it('bins into the report the same as the time of every refusal', () => {
    const startMs = Date.UTC(2026, 3, 1, 0, 0, 7, 250);
    const run = fc.integer({ min: 1, max: 30 * 3_600_000 }).chain((durationMs) =>
      fc.tuple(
        fc.constant(durationMs),
        fc.array(
          fc.record({
            offsetMs: fc.integer({ min: 0, max: durationMs }),
            action: fc.constantFrom('requests', 'post', 'like', 'reply'),
          }),
          { maxLength: 200, size: 'max' },
        ),
      ),
    );
    fc.assert(
      fc.property(run, ([durationMs, draws]) => {
        const refusals = draws
          .map((d) => ({ atMs: startMs + d.offsetMs, action: d.action }))
          .sort((a, b) => a.atMs - b.atMs);
        const counts = new MinuteCounts(startMs);
        for (const r of refusals) counts.add(r.action, r.atMs);
        const axis = timeAxis(startMs, startMs + durationMs);
        expect(refusalsOverTime(axis, counts)).toEqual(rowsOfEachTime(axis, refusals));
      }),
      { numRuns: 300 },
    );
  });

  it('counts per kind and minute, timed at the minute start', () => {
    const counts = new MinuteCounts(1_000);
    counts.add('post', 1_000);
    counts.add('post', 60_999);
    counts.add('like', 61_000);
    counts.add('post', 61_000);
    expect([...counts.counts()]).toEqual([
      { atMs: 1_000, kind: 'post', value: 2 },
      { atMs: 61_000, kind: 'post', value: 1 },
      { atMs: 61_000, kind: 'like', value: 1 },
    ]);
  });
});
