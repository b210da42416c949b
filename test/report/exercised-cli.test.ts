import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `run` as a user runs it (dist/, built by `npm test`'s pretest step): a short scenario in which the
 * money, tournament and reply invariants run no check. The console says so; a scenario that requires one
 * of them to be exercised exits 1 naming it, and an unknown name exits 2 before the run.
 */
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ['bin/agent-chess-sim.js', ...args], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function scenarioFile(dir: string, extra = ''): string {
  const file = join(dir, 'idle.yaml');
  writeFileSync(
    file,
    `name: idle\nseed: 4\nstart: 2026-01-01T00:00:00Z\nduration: 1h\n${extra}population:\n  - persona: random\n    count: 6\n    heartbeat: { min: 30s, max: 60s }\n`,
  );
  return file;
}

const INVARIANTS_LINE = /^invariants \((\d+) held, (\d+) not exercised\): (.*)$/m;

describe('run: invariants that ran no check', () => {
  it('prints them as not exercised, with the counts, and still exits 0', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-exercised-'));
    const { code, stdout } = cli('run', scenarioFile(dir), '--out', join(dir, 'out'), '--no-progress');
    expect(code).toBe(0);
    const [, held, idle, items] = stdout.match(INVARIANTS_LINE) ?? [];
    expect(Number(held) + Number(idle)).toBe(14);
    expect(items).toContain('escrow_settles_once not exercised (0 checks)');
    expect(items).toMatch(/elo_conservation ok \(\d+ checks\)/);
    const summary = readFileSync(join(dir, 'out', 'summary.md'), 'utf8');
    expect(summary).toContain(`**Passed**: 14 invariants: ${held} held, ${idle} not exercised.`);
    expect(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8')).toContain(
      `<testsuite name="idle" tests="14" failures="0" errors="0" skipped="${idle}">`,
    );
  });

  it('exits 1 when the scenario requires one of them, naming it and why on stderr and in report.json', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-exercised-'));
    const file = scenarioFile(dir, 'requireExercised: [escrow_settles_once]\n');
    const { code, stdout, stderr } = cli('run', file, '--out', join(dir, 'out'), '--no-progress');
    expect(code).toBe(1);
    expect(stdout).toContain('escrow_settles_once NOT EXERCISED (required) (0 checks)');
    expect(stderr).toContain('required invariant escrow_settles_once was not exercised: 0 checks ran\n');
    expect(stderr).toMatch(/replay: npx agent-chess-sim run .*idle\.yaml --seed 4 --out /);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.passed).toBe(false);
    expect(report.required_not_exercised).toEqual([
      {
        name: 'escrow_settles_once',
        message: 'required invariant escrow_settles_once was not exercised: 0 checks ran',
      },
    ]);
  });

  it('--require-exercised requires every invariant; the replay command keeps the option', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-exercised-'));
    const out = join(dir, 'out');
    const { code, stderr } = cli(
      'run',
      scenarioFile(dir),
      '--out',
      out,
      '--no-progress',
      '--require-exercised',
    );
    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const idle = report.invariants.filter((i: { checks: number }) => i.checks === 0);
    expect(idle.length).toBeGreaterThan(0);
    for (const inv of idle)
      expect(stderr).toContain(`required invariant ${inv.name} was not exercised: 0 checks ran\n`);
    expect(stderr).toMatch(/replay: .* --require-exercised --out /);
  });

  it('refuses an unknown invariant name in requireExercised with one line and exit 2, writing nothing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-exercised-'));
    const file = scenarioFile(dir, 'requireExercised: [escrow_settle_once]\n');
    const { code, stdout, stderr } = cli('run', file, '--out', join(dir, 'out'), '--no-progress');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^.*idle\.yaml: invalid scenario\n {2}- requireExercised: unknown invariant escrow_settle_once \(the run checks elo_conservation, .*\)\n$/,
    );
  });
});
