/**
 * A build step, not a command (scripts/bundle.mjs runs it as `node <the bin's flags> --import
 * heap-growth.js run-cache.js`, so V8's flags are the CLI's, which a code cache must be made under): the V8
 * code cache of the run command's bundle (run-bundle.ts), made after one short run of the personas the
 * shipped scenarios use, with every report file written, so it holds the bytecode of what a run and its
 * report run. The files are thrown away; only the compiled code is kept.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeBundleCache } from '../sweep/code-bundle.js';
import { loadRunBundle, runBundle, type RunModule } from './run-bundle.js';

/** Two virtual hours of the shipped scenarios' personas (engines aside: their wasm is not in the bundle). */
const WARM_UP = `name: run-cache
seed: 1
start: 2026-01-01T00:00:00Z
duration: 2h
population:
  - persona: random
    count: 12
    heartbeat: { min: 30s, max: 60s }
    options: { maxGames: 2 }
  - persona: slow
    count: 4
    heartbeat: { min: 30s, max: 90s }
    options: { maxGames: 1 }
  - mix:
      total: 24
      personas: { poller: 0.3, flaky: 0.2, poster: 0.2, replier: 0.1, human: 0.1, cautious: 0.1 }
      heartbeat: { distribution: lognormal, min: 15s, max: 10m, median: 45s }
      options:
        poster: { maxGames: 1, verify: false }
`;

const loaded = loadRunBundle();
const dir = mkdtempSync(join(tmpdir(), 'acs-run-cache-'));
try {
  await warmUp(loaded.exports.runCommand, dir);
} catch (error) {
  // The cache only speeds a run's start: a build goes on without the warm-up's part of it.
  process.stderr.write(`run-bundle.cache: the warm-up failed (${String(error)}); the cache holds less\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`run-bundle.cache: ${writeBundleCache(runBundle(), loaded)} bytes of compiled code\n`);

/** The run command on WARM_UP, as the CLI calls it; its summary lines are not the build's output. */
async function warmUp(runCommand: RunModule['runCommand'], dir: string): Promise<void> {
  const scenario = join(dir, 'run-cache.yaml');
  writeFileSync(scenario, WARM_UP);
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = () => true;
  try {
    await runCommand.handler({ scenario, out: join(dir, 'out'), progress: false, _: [], $0: 'run-cache' });
  } finally {
    process.stdout.write = write;
  }
  const code = process.exitCode;
  process.exitCode = 0; // the build step's own status is whether it wrote the cache
  if (code !== 0) throw new Error(`the run exited ${String(code)}`);
}
