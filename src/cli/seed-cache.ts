/**
 * A build step, not a command (scripts/bundle.mjs runs it as `node <the bin's flags> seed-cache.js`): the
 * V8 code cache of the sweep threads' bundle (src/sweep/pool/seed-bundle.ts), made after two short seeds so
 * it holds the bytecode of what a seed runs. V8 takes a cache only under the flags it was made with, so this
 * process sets them as the CLI does: the bin's on the command line, then heap-growth.ts's, imported first
 * as main.ts imports it. The seeds' results are thrown away; only the compiled code is kept.
 */
import './heap-growth.js';
import { loadSeedBundle, writeSeedCache, type SeedModule } from '../sweep/pool/seed-bundle.js';

/** A smoke-like scenario, short: random and slow players, a few games each. */
const WARM_UP = `name: seed-cache
seed: 1
start: 2026-01-01T00:00:00Z
duration: 6h
population:
  - persona: random
    count: 10
    heartbeat: { min: 30s, max: 60s }
    options: { maxGames: 2 }
  - persona: slow
    count: 4
    heartbeat: { min: 30s, max: 90s }
    options: { maxGames: 1 }
`;

const loaded = loadSeedBundle();
try {
  await warmUp(loaded.exports);
} catch (error) {
  // The cache only speeds the threads' start: a build goes on without the warm-up's part of it.
  process.stderr.write(`seed-bundle.cache: the warm-up failed (${String(error)}); the cache holds less\n`);
}
process.stdout.write(`seed-bundle.cache: ${writeSeedCache(loaded)} bytes of compiled code\n`);

/** Runs the start check and two seeds of WARM_UP, as a sweep thread would. */
async function warmUp(seeds: SeedModule): Promise<void> {
  const task = { scenarioText: WARM_UP, scenarioFile: 'seed-cache.yaml' };
  const problem = await seeds.scenarioStartProblem(task);
  if (problem !== null) throw new Error(problem);
  for (const seed of [1, 2]) {
    const result = await seeds.runSeed({ ...task, seed });
    if (result.status === 'crashed') throw new Error(`seed ${seed} crashed: ${result.error}`);
  }
}
