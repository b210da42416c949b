import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveControlToken } from '../../src/cli/control-token.js';

/**
 * `serve` prints the control token only when it drew the token itself (issue 25): a token the user gave,
 * in ACS_CONTROL_TOKEN or a file, is named by where it came from and never printed; one given as
 * --control-token earns a warning, since every user of the machine can read a command line.
 */
const SECRET = 'user-chosen-token-0123456789abcdef';

interface Started {
  child: ChildProcessWithoutNullStreams;
  origin: string;
  banner: string;
  stderr: () => string;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

/** The built CLI's serve on a free port with a manual clock; resolves once its banner is out. */
function startServe(args: string[], env: Record<string, string>): Promise<Started> {
  const child = spawn(
    process.execPath,
    ['bin/agent-chess-sim.js', 'serve', '--port', '0', '--manual', ...args],
    { env: { ...process.env, ACS_CONTROL_TOKEN: '', ...env } },
  );
  children.push(child);
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const origin = /(http:\/\/127\.0\.0\.1:\d+)\/api/.exec(out)?.[1];
      if (origin && out.includes('Ctrl-C')) resolve({ child, origin, banner: out, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}${err}`)));
  });
}

async function clockStatus(origin: string, token: string): Promise<number> {
  return (await fetch(`${origin}/_sim/clock`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('serve names a given control token without printing it', () => {
  it('from ACS_CONTROL_TOKEN: says so, prints no value, and the token works', async () => {
    const served = await startServe([], { ACS_CONTROL_TOKEN: SECRET });
    expect(served.banner).not.toContain(SECRET);
    expect(served.banner).toContain(
      'simulator control token: from ACS_CONTROL_TOKEN, not printed (keep it private; every /_sim route needs it)',
    );
    expect(served.banner).toContain(`/_sim/clock -H "authorization: Bearer $ACS_CONTROL_TOKEN"`);
    expect(await clockStatus(served.origin, SECRET)).toBe(200);
    expect(served.stderr()).not.toContain('--control-token is visible');
  });

  it('from --control-token-file: names the file, prints no value, and the token works', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'serve-token-')), 'token');
    writeFileSync(file, `${SECRET}\n`);
    const served = await startServe(['--control-token-file', file], {});
    expect(served.banner).not.toContain(SECRET);
    expect(served.banner).toContain(`simulator control token: the contents of ${file}, not printed`);
    expect(served.banner).toContain(`-H "authorization: Bearer $(cat '${file}')"`);
    expect(await clockStatus(served.origin, SECRET)).toBe(200);
  });

  it('from --control-token: prints no value and warns that argv is visible, suggesting the env var', async () => {
    const served = await startServe(['--control-token', SECRET], {});
    expect(served.banner).not.toContain(SECRET);
    expect(await clockStatus(served.origin, SECRET)).toBe(200);
    for (let i = 0; i < 100 && !served.stderr().includes('warning'); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.stderr()).toContain(
      'warning: --control-token is visible to every user of this machine (ps, /proc/<pid>/cmdline); pass it in ACS_CONTROL_TOKEN or with --control-token-file FILE instead',
    );
  });

  it('drawn by serve: printed, since nobody else knows it', async () => {
    const served = await startServe([], {});
    const token = /simulator control token \(keep it private; every \/_sim route needs it\): (\S+)/.exec(
      served.banner,
    )?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await clockStatus(served.origin, token!)).toBe(200);
  });
});

describe('resolveControlToken', () => {
  it('refuses both a flag and a file, an unreadable file and a malformed token, in one line each', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'serve-token-')), 'short');
    writeFileSync(file, 'short\n');
    expect(resolveControlToken({ controlToken: SECRET, controlTokenFile: file }, {})).toBe(
      '--control-token and --control-token-file: give one of them',
    );
    expect(resolveControlToken({ controlTokenFile: '/nonexistent/token' }, {})).toBe(
      '--control-token-file: cannot read /nonexistent/token: ENOENT',
    );
    expect(resolveControlToken({ controlTokenFile: file }, {})).toBe(
      `--control-token-file ${file}: the control token is 16 to 256 characters of letters, digits and ._~+/=-`,
    );
    expect(resolveControlToken({}, { ACS_CONTROL_TOKEN: 'bad token' })).toMatch(/^ACS_CONTROL_TOKEN: /);
    expect(resolveControlToken({}, { ACS_CONTROL_TOKEN: SECRET })).toEqual({
      value: SECRET,
      source: { kind: 'env' },
    });
    expect(resolveControlToken({ controlToken: SECRET }, { ACS_CONTROL_TOKEN: 'x' })).toMatchObject({
      source: { kind: 'flag' },
    });
  });
});
