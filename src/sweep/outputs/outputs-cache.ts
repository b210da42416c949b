/**
 * A build step, not a command (scripts/bundle.mjs runs it as `node <the bin's flags> --import
 * heap-growth.js outputs-cache.js`, so V8's flags are the CLI's, which a code cache must be made under):
 * the V8 code cache of the sweep outputs' bundle (outputs-bundle.ts), made after writing the outputs of a
 * short sweep of real seeds, so it holds the bytecode of what drawing a sweep's charts runs. The files are
 * thrown away; only the compiled code is kept.
 */
import { runSeed } from '../run-seed.js';
import { buildSweep, sweepIdentity } from '../sweep-result.js';
import { writeBundleCache } from '../code-bundle.js';
import { loadOutputsBundle, outputsBundle } from './outputs-bundle.js';

/** Random players for a virtual hour: seeds a fraction of a second each, whose metrics differ. */
const WARM_UP = `name: outputs-cache
seed: 1
start: 2026-01-01T00:00:00Z
duration: 1h
population:
  - persona: random
    count: 8
    heartbeat: { min: 30s, max: 60s }
    options: { maxGames: 2 }
`;

const SEEDS = [1, 2, 3, 4];

const loaded = loadOutputsBundle();
try {
  const scenario = { scenarioText: WARM_UP, scenarioFile: 'outputs-cache.yaml' };
  const results = [];
  for (const seed of SEEDS) results.push(await runSeed({ ...scenario, seed }));
  const identity = sweepIdentity(
    '0.0.0',
    { name: 'outputs-cache', file: scenario.scenarioFile, text: WARM_UP },
    SEEDS,
  );
  loaded.exports.sweepFiles(buildSweep(identity, results));
} catch (error) {
  // The cache only speeds a sweep's end: a build goes on without the warm-up's part of it.
  process.stderr.write(`outputs-bundle.cache: the warm-up failed (${String(error)}); the cache holds less\n`);
}
process.stdout.write(
  `outputs-bundle.cache: ${writeBundleCache(outputsBundle(), loaded)} bytes of compiled code\n`,
);
