import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/** `serve --ready-file`, the door for harnesses in other languages (examples/python/conftest.py reads it). */
const BIN = fileURLToPath(new URL('../../bin/agent-chess-sim.js', import.meta.url));

let child: ChildProcess | undefined;
let dir: string | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function serve(readyFile: string): ChildProcess {
  const args = [
    'serve',
    '--port',
    '0',
    '--manual',
    '--start',
    '2026-03-01T00:00:00Z',
    '--ready-file',
    readyFile,
  ];
  return spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

async function untilExists(path: string, withinMs: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < withinMs;)
    if (existsSync(path)) return;
    else await new Promise((resolve) => setTimeout(resolve, 50));
  throw new Error(`${path} did not appear within ${withinMs} ms`);
}

describe('serve --ready-file', () => {
  it('writes the URL, the control token and the pid as JSON once listening, readable only by its owner', async () => {
    dir = mkdtempSync(join(tmpdir(), 'acs-ready-'));
    const readyFile = join(dir, 'twin.json');
    child = serve(readyFile);
    await untilExists(readyFile, 15_000);
    const ready = JSON.parse(readFileSync(readyFile, 'utf8'));
    expect(ready).toMatchObject({ pid: child.pid, now: '2026-03-01T00:00:00.000Z' });
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.api).toBe(`${ready.url}/api`);
    expect(statSync(readyFile).mode & 0o777).toBe(0o600);
    const clock = await fetch(`${ready.url}/_sim/clock`, {
      headers: { authorization: `Bearer ${ready.control_token}` },
    });
    expect(((await clock.json()) as any).now).toBe('2026-03-01T00:00:00.000Z');
    expect((await fetch(`${ready.url}/_sim/clock`)).status).toBe(401);
  }, 30_000);

  it('refuses in one line, exit 2, when the file cannot be written', async () => {
    child = serve('/nonexistent-dir/twin.json');
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child!.on('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim()).toMatch(/^serve: cannot write --ready-file \/nonexistent-dir\/twin\.json: ENOENT/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  }, 30_000);
});
