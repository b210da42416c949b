/**
 * The sweep's outputs code (outputs.ts: sweep.json, junit.xml, summary.md, and sweep.html, whose charts Vega
 * draws) as one file with its code cache (code-bundle.ts), loaded at a sweep's end (issue 32, P6). Vega and
 * Vega-Lite are some 200 ES modules: loaded one by one they took the sweep's main thread about 0.45 s of CPU,
 * the bundle with its cache under 0.1 s; and the cache's bytecode, made after drawing a sweep's charts
 * (outputs-cache.ts), also spares the drawing the compiling of Vega's functions. The bytes written are the
 * modules' (test/sweep/outputs-bundle.test.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIsCurrent, loadBundle, type CodeBundle, type LoadedBundle } from '../code-bundle.js';
import { workerEntryFile } from '../pool/built-file.js';

export type OutputsModule = typeof import('./outputs.js');

/** The bundle and its cache, beside the compiled outputs.js in dist/ (built from it by scripts/bundle.mjs). */
export function outputsBundle(): CodeBundle {
  const file = fileURLToPath(workerEntryFile(import.meta.url, './outputs-bundle.cjs'));
  return {
    file,
    cacheFile: join(dirname(file), 'outputs-bundle.cache'),
    madeFrom: fileURLToPath(workerEntryFile(import.meta.url, './outputs.js')),
  };
}

/** The bundle's outputs code, and the script whose cache the build writes. */
export function loadOutputsBundle(): LoadedBundle<OutputsModule> {
  return loadBundle<OutputsModule>(outputsBundle());
}

/**
 * The outputs code: the build's bundle when this module is itself the build and the bundle was made from
 * it; else (under vitest, or after a bare tsc) the modules.
 */
export async function loadOutputs(): Promise<OutputsModule> {
  const built = import.meta.url.endsWith('.js');
  if (built && bundleIsCurrent(outputsBundle())) return loadOutputsBundle().exports;
  return import('./outputs.js');
}
