import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN_NODE_FLAGS } from '../../bench/cli-process.js';
import { loadOutputsBundle } from '../../src/sweep/outputs/outputs-bundle.js';
import { sweepFiles } from '../../src/sweep/outputs/outputs.js';
import { buildSweep } from '../../src/sweep/sweep-result.js';
import { packageRoot } from '../../src/sweep/version.js';
import { fakeIdentity, fakeResult } from './synthetic.js';

/**
 * The sweep outputs' one-file bundle with Vega (dist/, made by `npm run build`, which pretest runs) writes
 * the bytes the modules write, and its code cache is taken under the flags the sweep's main thread runs with.
 */
describe('the sweep outputs bundle', () => {
  it('writes the bytes the modules write, charts included', () => {
    const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
    const results = seeds.map((seed) => fakeResult(seed, seed === 5 ? 'failed' : 'passed', 40 + seed * seed));
    const sweep = buildSweep(fakeIdentity(seeds), results);
    const bundled = loadOutputsBundle().exports.sweepFiles(sweep);
    expect(bundled['sweep.html']).toContain('<svg');
    expect(bundled).toEqual(sweepFiles(sweep));
  });

  it("takes its code cache under the bin's node flags", () => {
    const dist = (path: string) => JSON.stringify(pathToFileURL(`${packageRoot()}/dist/${path}`).href);
    const probe = `await import(${dist('src/cli/heap-growth.js')});
      const { loadOutputsBundle } = await import(${dist('src/sweep/outputs/outputs-bundle.js')});
      process.stdout.write(String(loadOutputsBundle().cacheAccepted));`;
    const child = spawnSync(process.execPath, [...BIN_NODE_FLAGS, '--input-type=module', '-e', probe], {
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('true');
  });
});
