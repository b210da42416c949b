import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cacheTakenUnderBinFlags } from '../helpers/code-cache.js';
import { loadRunBundle } from '../../src/cli/run-bundle.js';
import { runCommand } from '../../src/cli/run.js';

/** An hour of chess and social personas: every report file, charts and the game viewer included. */
const SCENARIO = `name: run-bundle
seed: 3
start: 2026-01-01T00:00:00Z
duration: 1h
population:
  - persona: random
    count: 6
    heartbeat: { min: 30s, max: 60s }
    options: { maxGames: 2 }
  - mix:
      total: 8
      personas: { poller: 0.5, poster: 0.25, replier: 0.25 }
      heartbeat: { min: 20s, max: 90s }
`;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The run command's handler on SCENARIO, its summary lines kept off the test's output: the files it wrote.
 * The scenario's path is written into the reports (the replay line), so both runs read the same file.
 */
async function runWith(command: typeof runCommand, scenario: string): Promise<Record<string, string>> {
  const out = mkdtempSync(join(tmpdir(), 'acs-run-bundle-out-'));
  dirs.push(out);
  const quiet = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await command.handler({ scenario, out, progress: false, _: [], $0: 'test' });
  } finally {
    quiet.mockRestore();
  }
  expect(process.exitCode).toBe(0);
  return Object.fromEntries(readdirSync(out).map((name) => [name, readFileSync(join(out, name), 'utf8')]));
}

/**
 * The run command's one-file bundle (dist/, made by `npm run build`, which pretest runs) writes the bytes
 * its modules write, and its code cache is taken under the flags the CLI runs with.
 */
describe('the run command bundle', () => {
  it('writes the report files the modules write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-run-bundle-'));
    dirs.push(dir);
    const scenario = join(dir, 'scenario.yaml');
    writeFileSync(scenario, SCENARIO);
    const bundled = await runWith(loadRunBundle().exports.runCommand, scenario);
    expect(Object.keys(bundled).sort()).toEqual([
      'games.pgn',
      'junit.xml',
      'report.html',
      'report.json',
      'summary.md',
    ]);
    expect(bundled['report.html']).toContain('<svg');
    expect(bundled['report.html']).toContain('LichessPgnViewer');
    expect(bundled).toEqual(await runWith(runCommand, scenario));
  });

  it("takes its code cache under the bin's node flags", () => {
    expect(cacheTakenUnderBinFlags({ module: 'src/cli/run-bundle.js', load: 'loadRunBundle' })).toEqual({
      stderr: '',
      stdout: 'true',
    });
  });
});
