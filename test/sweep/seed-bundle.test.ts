import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cacheTakenUnderBinFlags } from '../helpers/code-cache.js';
import { runSeed } from '../../src/sweep/run-seed.js';
import { loadSeedBundle } from '../../src/sweep/pool/seed-bundle.js';
import { packageRoot } from '../../src/sweep/version.js';
import { tempDir, writeScenario } from './helpers.js';

/**
 * The sweep threads' one-file bundle (dist/, made by `npm run build`, which pretest runs) is the modules it
 * was made from: the same seed gives the same result through it, and its code cache is taken under the flags
 * the bin runs node with, after the CLI's own (heap-growth.ts).
 */
describe('the sweep threads bundle', () => {
  it('runs a seed to the result the modules give', async () => {
    const file = writeScenario(tempDir(), 'bundle-same');
    const task = { scenarioText: readFileSync(file, 'utf8'), scenarioFile: file, seed: 7 };
    const [bundled, modules] = [await loadSeedBundle().exports.runSeed(task), await runSeed(task)];
    expect(bundled.status).toBe('passed');
    expect(bundled).toEqual(modules);
  });

  it("has a CommonJS entry whose exports are the tasks piscina runs (pool.ts's poolWorkerFile)", () => {
    const entry = `${packageRoot()}/dist/src/sweep/pool/pool-worker.cjs`;
    const tasks = createRequire(import.meta.url)(entry) as Record<string, unknown>;
    expect([typeof tasks['default'], typeof tasks['scenarioStartProblem']]).toEqual(['function', 'function']);
  });

  it("takes its code cache under the bin's node flags", () => {
    expect(
      cacheTakenUnderBinFlags({ module: 'src/sweep/pool/seed-bundle.js', load: 'loadSeedBundle' }),
    ).toEqual({
      stderr: '',
      stdout: 'true',
    });
  });
});
