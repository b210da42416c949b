import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Helpers of the sweep tests: short scenarios in a temp dir, and the CLI (built into dist/ by pretest) as a child process. */
export const FIXTURES = resolve('test/sweep/fixtures');

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'acs-sweep-'));
}

/** A scenario of a few random players for one virtual hour, plus optional extra groups: well under a second per seed. */
export function writeScenario(dir: string, name: string, extraGroups = ''): string {
  const file = join(dir, `${name}.yaml`);
  const text = [
    `name: ${name}`,
    'seed: 1',
    'start: 2026-01-01T00:00:00Z',
    'duration: 1h',
    'population:',
    '  - persona: random',
    '    count: 4',
    '    heartbeat: { min: 30s, max: 60s }',
    '    options: { maxGames: 1 }',
    extraGroups,
  ].join('\n');
  writeFileSync(file, text);
  return file;
}

/** A group of one fixture agent module. */
export function fixtureGroup(module: string, options: string, heartbeat = '{ min: 30s, max: 60s }'): string {
  return [
    `  - module: ${join(FIXTURES, module)}`,
    '    count: 1',
    `    heartbeat: ${heartbeat}`,
    `    options: ${options}`,
    '',
  ].join('\n');
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; killed (SIGKILL) if it outlives `timeoutMs`, so a hung command fails its test instead of hanging it. */
export function cli(
  args: string[],
  options: { timeoutMs?: number; onSpawn?: (child: ChildProcess) => void; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolveResult, reject) => {
    const child = spawn(process.execPath, ['bin/agent-chess-sim.js', ...args], {
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveResult({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** Resolves once `read()` matches `pattern`, polling every 20 ms; rejects after `timeoutMs`. */
export async function waitFor(
  read: () => string,
  pattern: RegExp,
  timeoutMs: number,
  what: string,
): Promise<RegExpMatchArray> {
  for (let waited = 0; waited <= timeoutMs; waited += 20) {
    const match = read().match(pattern);
    if (match) return match;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; got:\n${read()}`);
}
