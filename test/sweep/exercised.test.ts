import { describe, expect, it } from 'vitest';
import { runSeed } from '../../src/sweep/run-seed.js';
import { seedResultProblem, type SeedResult } from '../../src/sweep/seed-result.js';
import { buildSweep, sweepIdentity } from '../../src/sweep/sweep-result.js';
import { sweepJunit } from '../../src/sweep/outputs/junit.js';
import { sweepSummary } from '../../src/sweep/outputs/summary.js';

/**
 * Sweeps, exercised or not: per seed x invariant, one that ran no check is <skipped> in junit.xml and
 * counted apart in summary.md; a seed where an invariant the scenario requires ran no check is failed.
 * One virtual hour of random players: escrow_settles_once runs no check, elo_conservation does.
 */
const TEXT = `name: idle
seed: 1
start: 2026-01-01T00:00:00Z
duration: 1h
requireExercised: [escrow_settles_once, elo_conservation]
population:
  - persona: random
    count: 6
    heartbeat: { min: 30s, max: 60s }
`;

describe('a sweep whose seeds leave invariants unexercised', () => {
  it('fails the seed on the required one, skips the others in junit.xml, and counts them in summary.md', async () => {
    const results: SeedResult[] = [];
    for (const seed of [1, 2])
      results.push(await runSeed({ scenarioText: TEXT, scenarioFile: 'idle.yaml', seed }));
    for (const r of results) {
      expect(r.status).toBe('failed');
      expect(seedResultProblem(r)).toBeUndefined(); // a shard holding it merges
      expect(r.invariants.find((i) => i.name === 'escrow_settles_once')).toMatchObject({
        checks: 0,
        passed: true,
        required: true,
      });
    }
    const [idle1, idle2] = results.map(
      (r) => r.invariants.filter((i) => i.checks === 0 && !i.required).length,
    );
    expect(idle1).toBeGreaterThan(0);

    const sweep = buildSweep(
      sweepIdentity('0.0.0', { name: 'idle', file: 'idle.yaml', text: TEXT }, [1, 2]),
      results,
    );
    expect(sweep.passed).toBe(false);
    expect(sweep.failures.map((f) => f.reason)).toEqual([
      'required invariant escrow_settles_once was not exercised: 0 checks ran',
      'required invariant escrow_settles_once was not exercised: 0 checks ran',
    ]);
    expect(sweep.invariants.find((t) => t.name === 'escrow_settles_once')).toEqual({
      name: 'escrow_settles_once',
      held: 0,
      broke: 0,
      not_exercised: 2,
    });

    const junit = sweepJunit(sweep);
    expect(junit).toContain(`tests="28" failures="2" errors="0" skipped="${idle1! + idle2!}">`);
    expect(junit).toContain(
      `<testsuite name="idle seed 1" tests="14" failures="1" errors="0" skipped="${idle1}">`,
    );
    expect(junit).toContain(
      '<testcase classname="idle.seed-1" name="escrow_settles_once">\n      <failure message="required invariant escrow_settles_once was not exercised: 0 checks ran" type="not_exercised">',
    );
    expect(junit).toContain(
      '<testcase classname="idle.seed-2" name="bounty_fees_exact">\n      <skipped message="not exercised: 0 checks ran"/>\n    </testcase>',
    );
    expect(junit).toContain('<testcase classname="idle.seed-1" name="elo_conservation"/>');

    const summary = sweepSummary(sweep);
    expect(summary).toContain('| invariant | seeds held | seeds broke | seeds not exercised (0 checks) |');
    expect(summary).toContain('| escrow_settles_once | 0 | 0 | 2 |');
    expect(summary).toContain('| elo_conservation | 2 | 0 | 0 |');
  });

  it('refuses a record read back that claims a pass over a required invariant that ran no check', async () => {
    const failed = await runSeed({ scenarioText: TEXT, scenarioFile: 'idle.yaml', seed: 1 });
    expect(seedResultProblem({ ...failed, status: 'passed' })).toEqual({
      field: 'status',
      why: '"passed" while required invariant "escrow_settles_once" ran no check',
    });
    const unrequired = failed.invariants.map((i) => ({ ...i, required: false }));
    expect(seedResultProblem({ ...failed, invariants: unrequired })).toEqual({
      field: 'status',
      why: '"failed" while every invariant held',
    });
  });
});
