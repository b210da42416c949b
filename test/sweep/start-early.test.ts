import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ScenarioStartError } from '../../src/sweep/aborted.js';
import { runSeedsLocally, SeedPool } from '../../src/sweep/pool/pool.js';
import { FIXTURES, tempDir } from './helpers.js';

/**
 * SeedPool.startEarly (the sweep command starts the check and the first seeds before its plan): a later
 * run takes the work already started instead of running it twice. The fixture's threads run no world;
 * they log each call to a file.
 */
describe('work started before the plan', () => {
  const worker = pathToFileURL(join(FIXTURES, 'logging-worker.mjs')).href;

  async function sweepStartedEarly(scenarioText: string, threads: number) {
    const calls = join(tempDir(), 'calls.txt');
    // The threads inherit the environment as it is when the pool starts.
    process.env['ACS_TEST_CALLS'] = calls;
    const pool = new SeedPool({ threads, filename: worker });
    const scenario = { scenarioText, scenarioFile: 'x.yaml' };
    const tasks = () => [1, 2, 3, 4, 5].map((seed) => ({ ...scenario, seed }));
    try {
      pool.startEarly(scenario, tasks(), 60_000);
      const run = runSeedsLocally(tasks(), {
        workers: threads,
        seedTimeoutMs: 60_000,
        pool,
        startCheck: scenario,
      });
      const outcome = await run.then(
        (results) => results.map((r) => r.seed).sort(),
        (error: unknown) => error,
      );
      return { outcome, calls: readFileSync(calls, 'utf8').trim().split('\n').sort() };
    } finally {
      await pool.destroy();
    }
  }

  it.each([1, 2, 3])('with %i threads every seed and the check run once', async (threads) => {
    const { outcome, calls } = await sweepStartedEarly('ok', threads);
    expect(outcome).toEqual([1, 2, 3, 4, 5]);
    expect(calls).toEqual(['check', 'seed 1', 'seed 2', 'seed 3', 'seed 4', 'seed 5']);
  });

  it("the early check's refusal ends the sweep, checked once", async () => {
    const { outcome, calls } = await sweepStartedEarly('refuse', 2);
    expect(outcome).toBeInstanceOf(ScenarioStartError);
    expect(calls.filter((c) => c === 'check')).toEqual(['check']);
    // The seed the check's thread would have gone on to is never run.
    expect(calls).not.toContain('seed 2');
  });
});
