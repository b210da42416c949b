/**
 * The run command's code as one file with its V8 code cache (code-bundle.ts), as the sweep threads' code and
 * the sweep's outputs already are (issue 32, P2). Loaded module by module, `run` resolved, read and linked
 * some 650 modules (255 of its own; the rest Vega, Vega-Lite, chessops, ajv and yaml) and compiled each
 * function on its first call: about half a second of a smoke run's six. The build (scripts/bundle.mjs)
 * writes run.js and everything it imports into run-bundle.cjs beside this module, and run-cache.ts its code
 * cache, made after a short run with every report file. The code is the same, module for module; the bytes
 * written are the modules' (test/unit/run-bundle.test.ts).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleIsCurrent, loadBundle, type CodeBundle, type LoadedBundle } from '../sweep/code-bundle.js';
import { workerEntryFile } from '../sweep/pool/built-file.js';

export type RunModule = typeof import('./run.js');

/** The bundle and its cache, beside the compiled run.js in dist/ (built from it by scripts/bundle.mjs). */
export function runBundle(): CodeBundle {
  const file = fileURLToPath(workerEntryFile(import.meta.url, './run-bundle.cjs'));
  return {
    file,
    cacheFile: join(dirname(file), 'run-bundle.cache'),
    madeFrom: fileURLToPath(workerEntryFile(import.meta.url, './run.js')),
  };
}

/** The bundle's run module, and the script whose cache the build writes. */
export function loadRunBundle(): LoadedBundle<RunModule> {
  return loadBundle<RunModule>(runBundle());
}

/**
 * The run command: the build's bundle when this module is itself the build and the bundle was made from
 * it; else (under vitest, or after a bare tsc) the modules.
 */
export async function loadRunCommand(): Promise<RunModule['runCommand']> {
  const built = import.meta.url.endsWith('.js');
  if (built && bundleIsCurrent(runBundle())) return loadRunBundle().exports.runCommand;
  return (await import('./run.js')).runCommand;
}
