/**
 * The sweep threads' code as one file (issue 32, P6): the build (scripts/bundle.mjs) writes run-seed.js and
 * everything it imports, packages included, into seed-bundle.cjs beside this module, and a V8 code cache of
 * it into seed-bundle.cache. A thread then reads and compiles one file instead of resolving and linking some
 * 430 ES modules (and the CommonJS files of yaml and ajv), and takes the bytecode of the functions a seed
 * runs from the cache instead of compiling each on its first call. The code is the same: the bundle is made
 * from the compiled modules, in their order, every module keeping its own import.meta.url and its names.
 *
 * V8 takes a code cache only under the flags it was made with; it rejects any other silently, and the
 * bundle is then compiled as usual (slower, never different). The build makes it under the CLI's own flags
 * (src/cli/seed-cache.ts). V8 checks a cache against its source's length only, so the cache file begins
 * with the SHA-256 of the bundle it was made from, and a cache of another bundle is never offered.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import type { runSeed, scenarioStartProblem } from '../run-seed.js';
import { workerEntryFile } from './built-file.js';

/** What the threads run: run-seed.ts's exports. */
export interface SeedModule {
  runSeed: typeof runSeed;
  scenarioStartProblem: typeof scenarioStartProblem;
}

/** The bundle and its cache, beside the compiled form of this module (dist/src/sweep/pool/). */
export const SEED_BUNDLE_FILE = fileURLToPath(workerEntryFile(import.meta.url, './seed-bundle.cjs'));
const SEED_CACHE_FILE = join(dirname(SEED_BUNDLE_FILE), 'seed-bundle.cache');

/**
 * Whether the bundle was made from the modules in dist/ as they are: made after them (the build bundles
 * right after tsc). A bare `tsc` rewrites every module, run-seed.js included, and leaves the bundle older:
 * the threads then load the modules, slower but never stale (pool-worker.ts).
 */
export function seedBundleIsCurrent(): boolean {
  const modules = fileURLToPath(workerEntryFile(import.meta.url, '../run-seed.js'));
  return existsSync(SEED_BUNDLE_FILE) && statSync(SEED_BUNDLE_FILE).mtimeMs >= statSync(modules).mtimeMs;
}

/** A loaded bundle: its exports, and the script they came from (whose code cache the build writes). */
export interface LoadedSeedBundle {
  exports: SeedModule;
  script: vm.Script;
  /** Whether V8 took the code cache (false when there is none, or it was made under other flags). */
  cacheAccepted: boolean;
}

/**
 * Compiles and runs the bundle as Node runs a CommonJS file (the same wrapper and arguments), with the code
 * cache when there is one. A computed `import()` in the bundled code (an agent module a scenario names) is
 * `acsImport` there (the build rewrites it): a vm.Script's own import() needs an experimental flag in Node 20.
 */
export function loadSeedBundle(): LoadedSeedBundle {
  if (!existsSync(SEED_BUNDLE_FILE))
    throw new Error(`${SEED_BUNDLE_FILE} is missing: run npm run build first`);
  const source = readFileSync(SEED_BUNDLE_FILE, 'utf8');
  const cachedData = cacheOf(source);
  const wrapped = `(function (exports, require, module, __filename, __dirname, acsImport) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: SEED_BUNDLE_FILE, cachedData });
  const module = { exports: {} as SeedModule };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const require = createRequire(SEED_BUNDLE_FILE);
  wrapper(module.exports, require, module, SEED_BUNDLE_FILE, dirname(SEED_BUNDLE_FILE), importAbsolute);
  return {
    exports: module.exports,
    script,
    cacheAccepted: cachedData !== undefined && !script.cachedDataRejected,
  };
}

/**
 * The bundled code's computed import(): its specifiers are absolute URLs (byo.ts imports a file by its URL),
 * which resolve the same from any module; a relative one would resolve against this file, not its own.
 */
function importAbsolute(specifier: string): Promise<unknown> {
  if (!/^(file|data|node):/.test(specifier))
    return Promise.reject(new Error(`the sweep bundle imports only absolute URLs, not ${specifier}`));
  return import(specifier);
}

/** Writes the bundle's code cache as it stands (every function `loaded` has compiled so far); its size. */
export function writeSeedCache(loaded: LoadedSeedBundle): number {
  const data = loaded.script.createCachedData();
  writeFileSync(SEED_CACHE_FILE, Buffer.concat([sourceDigest(readFileSync(SEED_BUNDLE_FILE, 'utf8')), data]));
  return data.length;
}

/** The cached data for `source`, when the cache file was made from it. */
function cacheOf(source: string): Buffer | undefined {
  if (!existsSync(SEED_CACHE_FILE)) return undefined;
  const file = readFileSync(SEED_CACHE_FILE);
  const digest = sourceDigest(source);
  return file.subarray(0, digest.length).equals(digest) ? file.subarray(digest.length) : undefined;
}

function sourceDigest(source: string): Buffer {
  return createHash('sha256').update(source).digest();
}
