import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The CLI as a user runs it (built by `npm test`'s pretest step into dist/). */
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ['bin/agent-chess-sim.js', ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('agent-chess-sim CLI', () => {
  it('has --help on every command', () => {
    for (const args of [
      ['--help'],
      ['run', '--help'],
      ['serve', '--help'],
      ['calibrate', '--help'],
      ['bench', '--help'],
    ]) {
      const { code, stdout } = cli(...args);
      expect(code).toBe(0);
      expect(stdout).toMatch(/agent-chess-sim/);
    }
    expect(cli('run', '--help').stdout).toMatch(/--seed/);
  });

  it('refuses an unknown command and a missing scenario argument', () => {
    expect(cli('fly').code).not.toBe(0);
    expect(cli('run').code).not.toBe(0);
  });

  it('exits 2 naming the bad field of a scenario, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'name: x\nseed: 1\nstart: 2026-01-01T00:00:00Z\nduration: 1h\npopulation:\n  - persona: random\n    count: zero\n',
    );
    const { code, stderr } = cli('run', file, '--out', join(dir, 'out'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/population\[0\]\.count: must be a positive integer/);
  });

  it('exits 2 with one line naming a group whose agent module cannot load, and writes nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-'));
    const file = join(dir, 'byo.yaml');
    const module = join(process.cwd(), 'test/fixtures/agents/no-default.mjs');
    writeFileSync(
      file,
      `name: byo\nseed: 1\nstart: 2026-01-01T00:00:00Z\nduration: 1h\npopulation:\n  - module: ${module}\n    count: 2\n`,
    );
    const { code, stderr } = cli('run', file, '--out', join(dir, 'out'), '--no-progress');
    expect(code).toBe(2);
    expect(stderr).toMatch(/population\[0\]\.module: agent module .*no-default\.mjs: /);
    expect(stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('runs a small scenario and writes report.json, games.pgn, junit.xml and summary.md', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-'));
    const file = join(dir, 'tiny.yaml');
    writeFileSync(
      file,
      'name: tiny\nseed: 4\nstart: 2026-01-01T00:00:00Z\nduration: 2h\npopulation:\n  - persona: random\n    count: 6\n',
    );
    const { code, stdout } = cli('run', file, '--out', join(dir, 'out'), '--seed', '9', '--no-progress');
    expect(code).toBe(0);
    expect(stdout).toMatch(/fingerprint: sha256:[0-9a-f]{64}/);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.scenario.seed).toBe('9');
    expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).toContain('<testsuite name="tiny"');
    expect(readFileSync(join(dir, 'out', 'summary.md'), 'utf8')).toContain(
      '## agent-chess-sim: tiny (seed 9)',
    );
    expect(report.passed).toBe(true);
    expect(report.counts.agents).toBe(6);
    const pgn = readFileSync(join(dir, 'out', 'games.pgn'), 'utf8');
    // Every game but the cancelled ones (bounty games only, and this run has none), finished or not.
    expect(pgn.match(/^\[Event /gm)?.length ?? 0).toBe(report.counts.games_started);
    expect(pgn.match(/^\[Result "\*"\]$/gm)?.length ?? 0).toBe(report.counts.games_unfinished);
  });
});
