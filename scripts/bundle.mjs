// The build's second step, after tsc (`npm run build`): one-file bundles of what starts on every use, made
// with esbuild from the compiled modules in dist/ (issue 32, P2 and P6):
// - dist/src/sweep/pool/seed-bundle.cjs: run-seed.js and all it imports, packages included, for the sweep
//   threads (src/sweep/pool/seed-bundle.ts loads it), and its V8 code cache (src/cli/seed-cache.ts);
// - dist/src/cli/main.bundle.js: the CLI's entry with yargs, which the bin runs; each command's module is
//   still loaded from dist/ on demand (command-table.ts), but for run's;
// - dist/src/cli/run-bundle.cjs: run.js and all it imports, Vega included, which the command table loads for
//   `run` (src/cli/run-bundle.ts), and its V8 code cache (src/cli/run-cache.ts);
// - dist/src/report/movetext-thread.cjs: the thread that writes games.pgn's movetexts while a run goes on
//   (src/report/movetexts-ahead.ts);
// - dist/src/sweep/outputs/outputs-bundle.cjs: a sweep's outputs code with Vega and Vega-Lite, which the
//   sweep's main thread loads at its end (src/sweep/outputs/outputs-bundle.ts), and its V8 code cache
//   (src/sweep/outputs/outputs-cache.ts);
// - dist/src/sweep/pool/pool-worker.cjs: the sweep threads' entry (pool-worker.js and the few modules that
//   load the seed bundle) as CommonJS, so a thread starts no ES module loader (src/sweep/pool/pool.ts).
// Every module keeps its own import.meta.url (rewritten to its file in dist/ or node_modules/, relative to
// the bundle), so the bundled code behaves as the modules it was made from. The two bundles whose code runs
// a world (run's and the seeds') are made without esbuild's keepNames: it wraps every function made at run
// time in a call that redefines its name, and closures made per request and per step spent ~0.1 s of a
// smoke run there. Without it a function esbuild renamed (two modules' `get`) reports the new name; nothing
// reads one (error classes name themselves), and the bytes written are the modules' (run-bundle.test.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { BIN_NODE_FLAGS } from '../dist/bench/cli-process.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

/** Packages a seed may load that stay where they are: native code, wasm beside its loader, or never loaded by a plain seed. */
const SEED_EXTERNALS = ['litesvm', '@solana/web3.js', 'stockfish.wasm'];

/**
 * Each module's import.meta.url as its own file's URL, found relative to the bundle's (`bundleUrl`, a JS
 * expression). A CommonJS bundle has no import.meta at all, so there any other use of it fails the build;
 * and it runs in a vm.Script, where a computed `import(specifier)` (an agent module a scenario names) is
 * not Node's without an experimental flag: it calls the loader's `acsImport` instead (seed-bundle.ts).
 */
function ownModuleMeta(outfile, bundleUrl, { commonJs }) {
  return {
    name: 'own-module-meta',
    setup(build) {
      build.onLoad({ filter: /\.(c|m)?js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const computedImport = /\bimport\((?!\s*['"])/g;
        if (!text.includes('import.meta') && !(commonJs && computedImport.test(text))) return undefined;
        const url = `new URL(${JSON.stringify(relative(dirname(outfile), args.path))}, ${bundleUrl}).href`;
        let contents = text.replaceAll('import.meta.url', url);
        if (commonJs) contents = contents.replace(computedImport, 'acsImport(');
        if (commonJs && contents.includes('import.meta'))
          throw new Error(`${args.path}: import.meta other than import.meta.url cannot be bundled`);
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * First, before ownModuleMeta reads the file. vega-canvas's one top-level await (a CommonJS bundle can have
 * none) loads the optional package; a require in the same try does the same: the package, or null when it
 * is not installed.
 */
function vegaCanvasRequire() {
  return {
    name: 'vega-canvas-require',
    setup(build) {
      build.onLoad({ filter: /vega-canvas[\\/]build[\\/]vega-canvas\.node\.js$/ }, (args) => {
        const text = readFileSync(args.path, 'utf8');
        const optional = "NodeCanvas = await import('canvas');";
        if (!text.includes(optional)) throw new Error(`${args.path}: its optional import of canvas changed`);
        return { contents: text.replace(optional, "NodeCanvas = require('canvas');"), loader: 'js' };
      });
    },
  };
}

/** Makes a bundle's code cache: `maker` (a build step in dist/) run under the bin's flags and heap-growth.js's. */
function makeCodeCache(cacheFile, maker) {
  rmSync(cacheFile, { force: true });
  const made = spawnSync(
    process.execPath,
    [...BIN_NODE_FLAGS, '--import', pathToFileURL(join(dist, 'src/cli/heap-growth.js')).href, maker],
    { stdio: 'inherit' },
  );
  if (made.status !== 0) throw new Error(`${relative(root, maker)} exited ${made.status}`);
}

const common = { bundle: true, platform: 'node', target: 'node20', keepNames: true, logLevel: 'warning' };

const seedBundle = join(dist, 'src/sweep/pool/seed-bundle.cjs');
await esbuild.build({
  ...common,
  keepNames: false,
  entryPoints: [join(dist, 'src/sweep/run-seed.js')],
  outfile: seedBundle,
  format: 'cjs',
  external: SEED_EXTERNALS,
  // ES modules are strict code; the bundle of them is too.
  banner: { js: '"use strict";' },
  plugins: [ownModuleMeta(seedBundle, 'require("node:url").pathToFileURL(__filename)', { commonJs: true })],
});
if (/\bimport\(/.test(readFileSync(seedBundle, 'utf8')))
  throw new Error(`${seedBundle}: an import() is left that the threads could not run`);

const mainBundle = join(dist, 'src/cli/main.bundle.js');
await esbuild.build({
  ...common,
  entryPoints: [join(dist, 'src/cli/main.js')],
  outfile: mainBundle,
  format: 'esm',
  // The packages yargs loads with require (CommonJS) find theirs through this.
  banner: {
    js: "import { createRequire as acsCreateRequire } from 'node:module'; const require = acsCreateRequire(import.meta.url);",
  },
  plugins: [
    ownModuleMeta(mainBundle, 'import.meta.url', { commonJs: false }),
    {
      name: 'commands-stay-modules',
      setup(build) {
        // command-table.ts's loaders: a command's module loads from dist/ when its name is given.
        build.onResolve({ filter: /^\.\/[a-z-]+\.js$/ }, (args) =>
          args.kind === 'dynamic-import' && args.importer.endsWith(join('cli', 'command-table.js'))
            ? { path: args.path, external: true }
            : undefined,
        );
      },
    },
  ],
});

// The code cache, made under the flags the bin runs node with (its shebang's, as the benches read them).
rmSync(join(dist, 'src/sweep/pool/seed-bundle.cache'), { force: true });
const cacheMaker = join(dist, 'src/cli/seed-cache.js');
const cache = spawnSync(process.execPath, [...BIN_NODE_FLAGS, cacheMaker], { stdio: 'inherit' });
if (cache.status !== 0) throw new Error(`seed-cache.js exited ${cache.status}`);

// The sweep outputs' bundle (CommonJS, for the code cache a vm.Script takes; see code-bundle.ts).
const outputsBundle = join(dist, 'src/sweep/outputs/outputs-bundle.cjs');
await esbuild.build({
  ...common,
  entryPoints: [join(dist, 'src/sweep/outputs/outputs.js')],
  outfile: outputsBundle,
  format: 'cjs',
  // Optional: vega-canvas measures text with it when installed; the bundle finds it where it is.
  external: ['canvas'],
  banner: { js: '"use strict";' },
  plugins: [
    vegaCanvasRequire(),
    ownModuleMeta(outputsBundle, 'require("node:url").pathToFileURL(__filename)', { commonJs: true }),
  ],
});
if (/\bimport\(/.test(readFileSync(outputsBundle, 'utf8')))
  throw new Error(`${outputsBundle}: an import() is left that a vm.Script could not run`);
makeCodeCache(
  join(dist, 'src/sweep/outputs/outputs-bundle.cache'),
  join(dist, 'src/sweep/outputs/outputs-cache.js'),
);

// The sweep threads' entry. Its one import() (the modules, when the seed bundle is stale) stays one.
const poolWorker = join(dist, 'src/sweep/pool/pool-worker.cjs');
await esbuild.build({
  ...common,
  entryPoints: [join(dist, 'src/sweep/pool/pool-worker.js')],
  outfile: poolWorker,
  format: 'cjs',
  banner: { js: '"use strict";' },
  plugins: [
    {
      name: 'run-seed-stays-a-module',
      setup(build) {
        build.onResolve({ filter: /^\.\.\/run-seed\.js$/ }, (args) =>
          args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined,
        );
      },
    },
    // Its import.meta.url rewritten as in the seed bundle; its computed import() (code-bundle.ts's, for the
    // seed bundle's agent modules) is Node's own in a CommonJS file, so it is left as it is.
    ownModuleMeta(poolWorker, 'require("node:url").pathToFileURL(__filename)', { commonJs: false }),
  ],
});

// The thread that writes games.pgn's movetexts while a run goes on (src/report/movetexts-ahead.ts).
const movetextThread = join(dist, 'src/report/movetext-thread.cjs');
await esbuild.build({
  ...common,
  keepNames: false,
  entryPoints: [join(dist, 'src/report/movetext-thread.js')],
  outfile: movetextThread,
  format: 'cjs',
  banner: { js: '"use strict";' },
  plugins: [
    ownModuleMeta(movetextThread, 'require("node:url").pathToFileURL(__filename)', { commonJs: true }),
  ],
});

// The run command's bundle (run-bundle.ts): run.js and all it imports, Vega included, loaded by the CLI
// when `run` is the command; its code cache is made after a short run with every report file.
const runBundle = join(dist, 'src/cli/run-bundle.cjs');
await esbuild.build({
  ...common,
  keepNames: false,
  entryPoints: [join(dist, 'src/cli/run.js')],
  outfile: runBundle,
  format: 'cjs',
  external: [...SEED_EXTERNALS, 'canvas'],
  banner: { js: '"use strict";' },
  plugins: [
    vegaCanvasRequire(),
    ownModuleMeta(runBundle, 'require("node:url").pathToFileURL(__filename)', { commonJs: true }),
  ],
});
if (/\bimport\(/.test(readFileSync(runBundle, 'utf8')))
  throw new Error(`${runBundle}: an import() is left that a vm.Script could not run`);
makeCodeCache(join(dist, 'src/cli/run-bundle.cache'), join(dist, 'src/cli/run-cache.js'));
