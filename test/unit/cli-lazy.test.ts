import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_LOADERS,
  COMMAND_SUMMARIES,
  commandNamed,
  type CommandName,
} from '../../src/cli/command-table.js';

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

  // The overview lists the summaries without loading a module; each module spreads its own summary, so a
  // name that loaded another command's module would show another usage line than the overview's.
  it('loads under each name the module whose usage line and description the overview shows', async () => {
    for (const name of NAMES) {
      const loaded = (await COMMAND_LOADERS[name]()) as { command: string; describe: string };
      expect({ command: loaded.command, describe: loaded.describe }).toEqual(COMMAND_SUMMARIES[name]);
      expect(loaded.command.split(' ')[0]).toBe(name);
    }
  });

  it('lists every command once in the overview help (dist/, built by the pretest step)', () => {
    const result = spawnSync(process.execPath, ['bin/agent-chess-sim.js', '--help'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    for (const name of NAMES)
      expect(result.stdout.match(new RegExp(`agent-chess-sim ${name}\\b`, 'g'))).toHaveLength(1);
  });
});
