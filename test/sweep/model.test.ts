import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { metricStats, nearestRank } from '../../src/sweep/outputs/stats.js';
import { buildSweep, replayCommand, sweepJson } from '../../src/sweep/sweep-result.js';
import { sweepJunit } from '../../src/sweep/outputs/junit.js';
import { sweepSummary } from '../../src/sweep/outputs/summary.js';
import { fakeIdentity, fakeResult, fakeSweeps } from './synthetic.js';

const FC = { numRuns: 200 };

describe('aggregate statistics', () => {
  it('mean, sample sd and nearest-rank percentiles of known values', () => {
    expect(metricStats([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({
      n: 8,
      mean: 5,
      sd: 2.13809,
      min: 2,
      p50: 4,
      p90: 9,
      p95: 9,
      p99: 9,
      max: 9,
    });
    expect(metricStats([7])).toEqual({
      n: 1,
      mean: 7,
      sd: 0,
      min: 7,
      p50: 7,
      p90: 7,
      p95: 7,
      p99: 7,
      max: 7,
    });
    // 90 * 10 / 100 is exactly rank 9; a float 0.9 * 10 would round up to rank 10
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 91)).toBe(10);
  });

  it('percentiles are values of the input, ordered, with at least p% at or below; the result ignores input order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 300 }),
        (values) => {
          const s = metricStats(values);
          const sorted = [...values].sort((a, b) => a - b);
          for (const p of [50, 90, 95, 99] as const) {
            const v = s[`p${p}`];
            expect(values).toContain(v);
            expect(sorted.filter((x) => x <= v).length * 100).toBeGreaterThanOrEqual(p * values.length);
            expect(sorted.filter((x) => x < v).length * 100).toBeLessThan(p * values.length);
          }
          expect([s.min, s.p50, s.p90, s.p95, s.p99, s.max]).toEqual(
            [...[s.min, s.p50, s.p90, s.p95, s.p99, s.max]].sort((a, b) => a - b),
          );
          expect(s.mean).toBeGreaterThanOrEqual(s.min - 1e-6);
          expect(s.mean).toBeLessThanOrEqual(s.max + 1e-6);
          expect(metricStats([...values].reverse())).toEqual(s);
        },
      ),
      FC,
    );
  });
});

describe('the sweep model', () => {
  it('gives the same bytes whatever order the seeds finished in', () => {
    fc.assert(
      fc.property(fakeSweeps, fc.nat(), ({ seeds, results }, rotation) => {
        const identity = fakeIdentity(seeds);
        const k = rotation % results.length;
        const shuffled = [...results.slice(k), ...results.slice(0, k)].reverse();
        expect(sweepJson(buildSweep(identity, shuffled))).toBe(sweepJson(buildSweep(identity, results)));
      }),
      FC,
    );
  });

  it('counts a breakdown metric absent from a run that ended as 0 there', () => {
    const withRefusals = fakeResult(1);
    withRefusals.metrics = { ...withRefusals.metrics!, refused_rate_limit_exceeded: 6 };
    const sweep = buildSweep(fakeIdentity([1, 2, 3]), [
      withRefusals,
      fakeResult(2),
      fakeResult(3, 'crashed'),
    ]);
    // over both runs that ended (6 and 0), not over the one that listed it; the crashed run has no metrics
    expect(sweep.aggregate['refused_rate_limit_exceeded']).toMatchObject({ n: 2, min: 0, max: 6, mean: 3 });
  });

  it('counts statuses, tallies invariants, aggregates only runs that ended, and lists each failure with its replay', () => {
    const seeds = [1, 2, 3, 4];
    const identity = fakeIdentity(seeds);
    const sweep = buildSweep(identity, [
      fakeResult(1),
      fakeResult(2, 'failed'),
      fakeResult(3, 'crashed'),
      fakeResult(4, 'timed_out'),
    ]);
    expect(sweep.passed).toBe(false);
    expect(sweep.counts).toEqual({ seeds: 4, passed: 1, failed: 1, crashed: 1, timed_out: 1, lost: 0 });
    expect(sweep.invariants).toEqual([
      { name: 'elo_conservation', held: 1, broke: 1, not_exercised: 0 },
      { name: 'one_result_per_game', held: 2, broke: 0, not_exercised: 0 },
    ]);
    expect(sweep.aggregate['moves']).toMatchObject({ n: 2, min: 10, max: 20, mean: 15 });
    expect(sweep.failures.map((f) => [f.seed, f.status])).toEqual([
      [2, 'failed'],
      [3, 'crashed'],
      [4, 'timed_out'],
    ]);
    expect(sweep.failures[0]!.reason).toBe(
      'invariant elo_conservation broke 2 time(s); first: game g1: 3 + -2 != 0 <&>',
    );
    expect(sweep.failures[2]!.reason).toBe('timed out: no result within 5 s');
    expect(sweep.failures[1]!.replay).toBe(
      'npx agent-chess-sim run scenarios/fake.yaml --seed 3 --out reports/fake-seed-3',
    );
    expect(replayCommand(fakeIdentity([1], { file: "my scenarios/it's.yaml" }), 1)).toBe(
      `npx agent-chess-sim run 'my scenarios/it'\\''s.yaml' --seed 1 --out reports/fake-seed-1`,
    );
  });

  it('refuses results that do not cover exactly the identity seeds', () => {
    expect(() => buildSweep(fakeIdentity([1, 2]), [fakeResult(1)])).toThrow(/cover seeds 1, not 1,2/);
    expect(() => buildSweep(fakeIdentity([1, 2]), [fakeResult(1), fakeResult(3)])).toThrow(/cover seeds 1,3/);
  });
});

describe('junit.xml and summary.md', () => {
  const sweep = buildSweep(fakeIdentity([1, 2, 3]), [
    fakeResult(1),
    fakeResult(2, 'failed'),
    fakeResult(3, 'crashed'),
  ]);

  it('junit: one test case per seed x invariant, failures for broken invariants, errors for runs that never ended', () => {
    const junit = sweepJunit(sweep);
    expect(junit).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="agent-chess-sim sweep fake seeds 1..3" tests="6" failures="1" errors="2" skipped="0">/,
    );
    expect(junit.match(/<testcase /g)).toHaveLength(6);
    expect(junit.match(/<testsuite /g)).toHaveLength(3);
    expect(junit).toContain(
      '<failure message="broke 2 time(s); first: game g1: 3 + -2 != 0 &lt;&amp;&gt;" type="invariant">replay: npx agent-chess-sim run scenarios/fake.yaml --seed 2 --out reports/fake-seed-2</failure>',
    );
    expect(junit).toContain(
      '<testcase classname="fake.seed-3" name="one_result_per_game">\n      <error message="crashed: boom" type="crashed">',
    );
    // balanced tags: every opened element is closed
    for (const tag of ['testsuites', 'testsuite', 'testcase']) {
      const opened = junit.match(new RegExp(`<${tag}[ >]`, 'g'))!.length;
      const closed =
        (junit.match(new RegExp(`</${tag}>`, 'g')) ?? []).length +
        (junit.match(new RegExp(`<${tag} [^>]*/>`, 'g')) ?? []).length;
      expect(closed, tag).toBe(opened);
    }
  });

  it('summary: the verdict, failing seeds with replay commands, invariants and metrics tables', () => {
    const md = sweepSummary(sweep);
    expect(md).toContain(
      '**3 seeds, 2 failing**: 1 passed, 1 broke an invariant, 1 crashed, 0 timed out, 0 lost.',
    );
    expect(md).toContain(
      '| 3 | crashed | crashed: boom | `npx agent-chess-sim run scenarios/fake.yaml --seed 3 --out reports/fake-seed-3` |',
    );
    expect(md).toContain('| elo_conservation | 1 | 1 |');
    expect(md).toMatch(/\| moves \| 15 \| 7\.071068 \| 10 \| 10 \| 20 \| 20 \| 20 \| 20 \|/);
  });
});
