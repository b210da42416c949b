import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ScenarioStartError } from '../../src/sweep/aborted.js';
import { runSeedsLocally, SeedPool } from '../../src/sweep/pool/pool.js';
import type { SeedResult } from '../../src/sweep/seed-result.js';
import { FIXTURES, fixtureGroup, tempDir, writeScenario } from './helpers.js';

/**
 * A local sweep checks that its scenario starts on the pool's first free thread, beside the first seeds
 * (the pool's threads run the build in dist/). The CLI's exit 2 for it is tested in sweep-cli.test.ts.
 */
describe.concurrent('the start check beside the first seeds', () => {
  it('a scenario that does not start ends the sweep with its lines, and no seed is reported', async () => {
    const file = writeScenario(
      tempDir(),
      'bad-module',
      fixtureGroup('../../fixtures/agents/no-default.mjs', '{}'),
    );
    const scenario = { scenarioText: readFileSync(file, 'utf8'), scenarioFile: file };
    const tasks = [1, 2, 3, 4, 5, 6].map((seed) => ({ ...scenario, seed }));
    const reported: SeedResult[] = [];
    const run = runSeedsLocally(tasks, {
      workers: 2,
      seedTimeoutMs: 10 * 60_000,
      onResult: (result) => reported.push(result),
      startCheck: scenario,
    });
    await expect(run).rejects.toThrow(ScenarioStartError);
    await expect(run).rejects.toThrow(
      /^bad-module: invalid scenario\n {2}- population\[1\]\.module: agent module .*no-default\.mjs: no default export/,
    );
    expect(reported).toEqual([]);
  });

  it('threads that cannot load are no refusal: every seed reports the crash', async () => {
    const pool = new SeedPool({
      threads: 2,
      filename: pathToFileURL(join(FIXTURES, 'broken-worker.mjs')).href,
    });
    const scenario = { scenarioText: '', scenarioFile: 'x.yaml' };
    const tasks = [1, 2, 3].map((seed) => ({ ...scenario, seed }));
    try {
      const results = await runSeedsLocally(tasks, {
        workers: 2,
        seedTimeoutMs: 10 * 60_000,
        pool,
        startCheck: scenario,
      });
      expect(results.map((r) => r.status)).toEqual(['crashed', 'crashed', 'crashed']);
    } finally {
      await pool.destroy();
    }
  });
});
