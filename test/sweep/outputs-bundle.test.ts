import { describe, expect, it } from 'vitest';
import { cacheTakenUnderBinFlags } from '../helpers/code-cache.js';
import { loadOutputsBundle } from '../../src/sweep/outputs/outputs-bundle.js';
import { sweepFiles } from '../../src/sweep/outputs/outputs.js';
import { buildSweep } from '../../src/sweep/sweep-result.js';
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
    expect(
      cacheTakenUnderBinFlags({ module: 'src/sweep/outputs/outputs-bundle.js', load: 'loadOutputsBundle' }),
    ).toEqual({
      stderr: '',
      stdout: 'true',
    });
  });
});
