import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** The CLI as a user runs it (built by `npm test`'s pretest step into dist/); stderr is a pipe, not a terminal. */
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ['bin/agent-chess-sim.js', ...args], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function scenarioFile(
  dir: string,
  body: { duration?: string; heartbeat?: string; count?: number } = {},
): string {
  const file = join(dir, 'tiny.yaml');
  const heartbeat = body.heartbeat ?? '{ min: 30s, max: 60s }';
  writeFileSync(
    file,
    `name: tiny\nseed: 4\nstart: 2026-01-01T00:00:00Z\nduration: ${body.duration ?? '2h'}\npopulation:\n  - persona: random\n    count: ${body.count ?? 6}\n    heartbeat: ${heartbeat}\n`,
  );
  return file;
}

/** Staging folders a run makes next to its output (`.out.partial-*`); none may outlive the run. */
function partials(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.includes('.partial-'));
}

const NO_STACK = /^\s+at .*:\d+/m;

describe('run: arguments and the output folder are checked before the run starts', () => {
  it('refuses an --out that is a file, or lies under one, with one line and exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-out-'));
    const file = scenarioFile(dir);
    writeFileSync(join(dir, 'taken'), 'a file');
    for (const [out, message] of [
      ['taken', /^agent-chess-sim run: --out .*taken: is a file, not a folder\n$/],
      [
        'taken/inside',
        /^agent-chess-sim run: --out .*taken\/inside: cannot create it here \(a part of the path is a file\)\n$/,
      ],
    ] as const) {
      const { code, stdout, stderr } = cli('run', file, '--out', join(dir, out), '--no-progress');
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stdout).toBe('');
    }
    expect(partials(dir)).toEqual([]);
  });

  it('refuses an empty --seed= and an unknown option, each in one line with exit 2 (the other argument checks: cli-run-agent.test.ts)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-args-'));
    const file = scenarioFile(dir);
    const cases: Array<[string[], RegExp]> = [
      [['run', file, '--seed='], /^agent-chess-sim run: --seed: give a value, e\.g\. --seed 7/],
      [
        ['run', file, '--sed', '3'],
        /^agent-chess-sim: Unknown argument: sed \(see agent-chess-sim --help\)\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = cli(...args, '--out', join(dir, 'out'));
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr).not.toMatch(NO_STACK);
    }
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('refuses a duration without a unit, naming the field and suggesting seconds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-unit-'));
    const file = scenarioFile(dir, { heartbeat: '{ min: 30, max: "60" }' });
    const { code, stderr } = cli('run', file, '--out', join(dir, 'out'));
    expect(code).toBe(2);
    expect(stderr).toContain(
      '  - population[0].heartbeat.min: 30 has no unit; write 30s for seconds (or 30ms, 30m, 30h)',
    );
    expect(stderr).toContain('  - population[0].heartbeat.max: 60 has no unit; write 60s for seconds');
  });
});

describe('run: progress, and reports written whole', () => {
  it('prints progress lines when stderr is not a terminal, and replaces the report files while removing stale ones', () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-run-'));
    const file = scenarioFile(dir);
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'crosscheck.txt'), 'litesvm: from an older run with --cross-check\n');
    writeFileSync(join(out, 'report.json'), '{"old": true}\n');
    writeFileSync(join(out, 'notes.txt'), 'mine\n');
    const { code, stdout, stderr } = cli('run', file, '--out', out);
    expect(code).toBe(0);
    const lines = stderr.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(
        /^tiny: \d+% of 2 h virtual, \d+\.\d s elapsed, ETA (\d+\.\d s|\?), \d+ games finished, \d+ moves$/,
      );
    expect(stdout).toMatch(/^wrote .*report\.json, .*games\.pgn, .*junit\.xml, .*summary\.md/m);
    expect(existsSync(join(out, 'crosscheck.txt'))).toBe(false);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).scenario.name).toBe('tiny');
    for (const name of ['games.pgn', 'junit.xml', 'summary.md'])
      expect(existsSync(join(out, name))).toBe(true);
    expect(partials(dir)).toEqual([]);
  });

  it('stops on Ctrl-C (SIGINT) with exit 130 and one line, writing nothing and leaving the previous report as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acs-int-'));
    // Long enough that the first progress line (5% of the virtual time) comes 19 times sooner than the end.
    const file = scenarioFile(dir, { duration: '1d', count: 8 });
    const out = join(dir, 'out');
    mkdirSync(out);
    writeFileSync(join(out, 'report.json'), '{"previous": true}\n');
    const child = spawn(process.execPath, ['bin/agent-chess-sim.js', 'run', file, '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (/^tiny: \d+% of 24 h virtual/m.test(stderr)) resolve();
      });
    });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    const last = stderr.trimEnd().split('\n').at(-1)!;
    expect(last).toMatch(
      new RegExp(
        `^SIGINT: stopped tiny at \\d+% of its virtual time after \\d+\\.\\d s; wrote nothing \\(${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} still holds the previous run's report, untouched\\)$`,
      ),
    );
    expect(stdout).toBe('');
    expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe('{"previous": true}\n');
    expect(readdirSync(out)).toEqual(['report.json']);
    expect(partials(dir)).toEqual([]);
  });
});
