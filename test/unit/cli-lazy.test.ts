import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { COMMAND_LOADERS, commandNamed, type CommandName } from '../../src/cli/command-table.js';

const NAMES = Object.keys(COMMAND_LOADERS) as CommandName[];

describe('the command line loads only the command it runs', () => {
  it('reads the command from the first word that is not an option, and none from a word that names none', () => {
    expect(commandNamed(['run', 'scenarios/smoke.yaml'])).toBe('run');
    expect(commandNamed(['--no-progress', 'sweep', 'x.yaml'])).toBe('sweep');
    expect(commandNamed(['--help'])).toBeUndefined();
    expect(commandNamed(['rnu'])).toBeUndefined();
    expect(commandNamed(['toString'])).toBeUndefined();
    expect(commandNamed([])).toBeUndefined();
  });

  // The overview loads every module and prints each one's own command string: a name that loaded another
  // command's module would be listed twice and its own not at all.
  it('lists every command in the overview help under the name that loads it (dist/, built by the pretest step)', () => {
    const result = spawnSync(process.execPath, ['bin/agent-chess-sim.js', '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const name of NAMES)
      expect(result.stdout.match(new RegExp(`agent-chess-sim ${name}\\b`, 'g'))).toHaveLength(1);
  });
});
