import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { joinSignedValues } from '../../src/cli/options.js';
import { cli, tempDir, writeScenario } from './helpers.js';

/**
 * `--seeds -5..-1` reached yargs as short flags ("Unknown argument: 5"); it now reaches the seed parser,
 * which says in one line that seeds are non-negative integers (exit 2, nothing run).
 */
describe('negative seeds', () => {
  it('joins a value that starts with a minus sign to --seeds and --seed, and nothing else', () => {
    expect(joinSignedValues(['sweep', 's.yaml', '--seeds', '-5..-1', '--out', 'x'])).toEqual([
      'sweep',
      's.yaml',
      '--seeds=-5..-1',
      '--out',
      'x',
    ]);
    expect(joinSignedValues(['run', 's.yaml', '--seed', '-3'])).toEqual(['run', 's.yaml', '--seed=-3']);
    expect(joinSignedValues(['sweep', '--seeds', '--workers', '2'])).toEqual([
      'sweep',
      '--seeds',
      '--workers',
      '2',
    ]);
    expect(joinSignedValues(['sweep', '--out', '-5', '--', '--seeds', '-1'])).toEqual([
      'sweep',
      '--out',
      '-5',
      '--',
      '--seeds',
      '-1',
    ]);
  });

  it('sweep --seeds -5..-1 answers in one line that seeds are non-negative integers, exit 2, nothing written', async () => {
    const dir = tempDir();
    const scenario = writeScenario(dir, 'tiny');
    const out = `${dir}/out`;
    const result = await cli(['sweep', scenario, '--seeds', '-5..-1', '--out', out, '--no-progress']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^--seeds: "-5\.\.-1" holds a negative number; seeds are non-negative integers/),
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
