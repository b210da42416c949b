/**
 * `agent-chess-sim serve` started as a user starts it, for the benches that measure a real server process
 * (autocannon, live-view): on a free port, its address read from its `--ready-file` once it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliArgs } from './cli-process.js';

const START_LIMIT_MS = 120_000;

export interface ServedProcess {
  readonly child: ChildProcess;
  /** The server's origin, without a trailing slash. */
  readonly origin: string;
  readonly controlToken: string;
  /** SIGTERM to the server, and its ready file's folder removed. */
  stop(): void;
}

/** Starts serve with `args` after `--port 0`; its stderr is shown with `showErrors`, else dropped like stdout. */
export async function startServeProcess(args: string[], showErrors = false): Promise<ServedProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'acs-bench-serve-'));
  const ready = join(dir, 'ready.json');
  const child = spawn(process.execPath, cliArgs(['serve', '--port', '0', ...args, '--ready-file', ready]), {
    stdio: ['ignore', 'ignore', showErrors ? 'inherit' : 'ignore'],
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  };
  for (let waited = 0; !existsSync(ready); waited += 50) {
    if (child.exitCode !== null || waited > START_LIMIT_MS) {
      stop();
      throw new Error('serve did not start');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { url, control_token } = JSON.parse(readFileSync(ready, 'utf8')) as {
    url: string;
    control_token: string;
  };
  return { child, origin: url.replace(/\/$/, ''), controlToken: control_token, stop };
}
