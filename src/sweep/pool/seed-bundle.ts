/**
 * The sweep threads' code as one file (issue 32, P6): the build (scripts/bundle.mjs) writes run-seed.js and
 * everything it imports, packages included, into seed-bundle.cjs beside this module, and a V8 code cache of
 * it into seed-bundle.cache (code-bundle.ts says how both are loaded). A thread then reads and compiles one
 * file instead of resolving and linking some 430 ES modules (and the CommonJS files of yaml and ajv), and
 * takes the bytecode of the functions a seed runs from the cache instead of compiling each on its first
 * call. The build makes the cache under the CLI's own flags (src/cli/seed-cache.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { runSeed, scenarioStartProblem } from '../run-seed.js';
import {
  bundleIsCurrent,
  loadBundle,
  writeBundleCache,
  type CodeBundle,
  type LoadedBundle,
} from '../code-bundle.js';
import { workerEntryFile } from './built-file.js';

/** What the threads run: run-seed.ts's exports. */
export interface SeedModule {
  runSeed: typeof runSeed;
  scenarioStartProblem: typeof scenarioStartProblem;
}

/** The bundle and its cache, beside the compiled form of this module (dist/src/sweep/pool/). */
export const SEED_BUNDLE_FILE = fileURLToPath(workerEntryFile(import.meta.url, './seed-bundle.cjs'));
const SEED_BUNDLE: CodeBundle = {
  file: SEED_BUNDLE_FILE,
  cacheFile: join(dirname(SEED_BUNDLE_FILE), 'seed-bundle.cache'),
  madeFrom: fileURLToPath(workerEntryFile(import.meta.url, '../run-seed.js')),
};

/** Whether the bundle was made from the modules in dist/ as they are (else the threads load the modules: pool-worker.ts). */
export function seedBundleIsCurrent(): boolean {
  return bundleIsCurrent(SEED_BUNDLE);
}

export type LoadedSeedBundle = LoadedBundle<SeedModule>;

export function loadSeedBundle(): LoadedSeedBundle {
  return loadBundle<SeedModule>(SEED_BUNDLE);
}

/** Writes the bundle's code cache as it stands (every function `loaded` has compiled so far); its size. */
export function writeSeedCache(loaded: LoadedSeedBundle): number {
  return writeBundleCache(SEED_BUNDLE, loaded);
}
