/**
 * A one-file bundle the build (scripts/bundle.mjs) makes from compiled modules in dist/, packages included,
 * and its V8 code cache (issue 32, P6). Loading one file skips resolving and linking hundreds of modules,
 * and the cache holds the bytecode of the functions its maker ran, so they are not compiled on first call.
 * The code is the same: the bundle is made from the compiled modules, in their order, every module keeping
 * its own import.meta.url and its names. The sweep threads' code (pool/seed-bundle.ts) and the sweep's
 * outputs (outputs/outputs-bundle.ts) are such bundles.
 *
 * V8 takes a code cache only under the flags it was made with; it rejects any other silently, and the
 * bundle is then compiled as usual (slower, never different). The build makes each under the CLI's own
 * flags. V8 checks a cache against its source's length only, so a cache file begins with the SHA-256 of the
 * bundle it was made from, and a cache of another bundle is never offered.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/** A bundle's files: the bundle, its cache, and a module it was made from (to tell a stale bundle). */
export interface CodeBundle {
  file: string;
  cacheFile: string;
  madeFrom: string;
}

/**
 * Whether the bundle was made from the modules in dist/ as they are: made after them (the build bundles
 * right after tsc). A bare `tsc` rewrites every module and leaves the bundle older: its users then load the
 * modules, slower but never stale.
 */
export function bundleIsCurrent(bundle: CodeBundle): boolean {
  return existsSync(bundle.file) && statSync(bundle.file).mtimeMs >= statSync(bundle.madeFrom).mtimeMs;
}

/** A loaded bundle: its exports, and the script they came from (whose code cache the build writes). */
export interface LoadedBundle<Exports> {
  exports: Exports;
  script: vm.Script;
  /** Whether V8 took the code cache (false when there is none, or it was made under other flags). */
  cacheAccepted: boolean;
}

/**
 * Compiles and runs the bundle as Node runs a CommonJS file (the same wrapper and arguments), with the code
 * cache when there is one. A computed `import()` in the bundled code (an agent module a scenario names) is
 * `acsImport` there (the build rewrites it): a vm.Script's own import() needs an experimental flag in Node 20.
 */
export function loadBundle<Exports>(bundle: CodeBundle): LoadedBundle<Exports> {
  if (!existsSync(bundle.file)) throw new Error(`${bundle.file} is missing: run npm run build first`);
  const source = readFileSync(bundle.file, 'utf8');
  const cachedData = cacheOf(bundle, source);
  const wrapped = `(function (exports, require, module, __filename, __dirname, acsImport) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: bundle.file, cachedData });
  const module = { exports: {} as Exports };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  const require = createRequire(bundle.file);
  wrapper(module.exports, require, module, bundle.file, dirname(bundle.file), importAbsolute);
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
    return Promise.reject(new Error(`a bundle imports only absolute URLs, not ${specifier}`));
  return import(specifier);
}

/** Writes the bundle's code cache as it stands (every function `loaded` has compiled so far); its size. */
export function writeBundleCache(bundle: CodeBundle, loaded: LoadedBundle<unknown>): number {
  const data = loaded.script.createCachedData();
  writeFileSync(bundle.cacheFile, Buffer.concat([sourceDigest(readFileSync(bundle.file, 'utf8')), data]));
  return data.length;
}

/** The cached data for `source`, when the cache file was made from it. */
function cacheOf(bundle: CodeBundle, source: string): Buffer | undefined {
  if (!existsSync(bundle.cacheFile)) return undefined;
  const file = readFileSync(bundle.cacheFile);
  const digest = sourceDigest(source);
  return file.subarray(0, digest.length).equals(digest) ? file.subarray(digest.length) : undefined;
}

function sourceDigest(source: string): Buffer {
  return createHash('sha256').update(source).digest();
}
