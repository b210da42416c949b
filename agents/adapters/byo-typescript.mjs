/**
 * Node module hooks that let a bring-your-own agent written in TypeScript load under plain Node 20, which
 * cannot import `.ts` itself (type stripping arrived in Node 22.6). `agents/adapters/byo.ts` registers this file with
 * `module.register` only after a `.ts` import has failed, so under vitest, tsx or a newer Node, which import
 * TypeScript themselves, it is never used.
 *
 * It transpiles one file at a time with the `typescript` package (already this project's compiler; no new
 * dependency). That removes types without checking them, as tsx and Node's own stripping do: run `tsc` for
 * type errors. Plain JavaScript (`.js`, `.mjs`) is kept as the first-class way to write an agent module.
 *
 * Kept as plain JavaScript so Node can load it from the source tree and from `dist/` alike.
 */
import { readFile } from 'node:fs/promises';

const TYPESCRIPT_FILE = /\.m?ts$/;

let typescript;

async function compiler() {
  if (typescript) return typescript;
  try {
    typescript = (await import('typescript')).default;
  } catch {
    throw new Error(
      'loading a .ts agent module under this Node needs the "typescript" package (npm i -D typescript), or compile the module to .js first',
    );
  }
  return typescript;
}

function isTypeScriptUrl(url) {
  return url.startsWith('file:') && TYPESCRIPT_FILE.test(new URL(url).pathname);
}

/** TypeScript sources import their siblings as `./x.js` (NodeNext style); when no such `.js` exists, try `./x.ts`. */
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    const fromTypeScript = context.parentURL !== undefined && isTypeScriptUrl(context.parentURL);
    if (!fromTypeScript || error?.code !== 'ERR_MODULE_NOT_FOUND' || !/^\.{1,2}\/.*\.(m?js)$/.test(specifier))
      throw error;
    return nextResolve(specifier.replace(/js$/, 'ts'), context);
  }
}

export async function load(url, context, nextLoad) {
  if (!isTypeScriptUrl(url)) return nextLoad(url, context);
  const ts = await compiler();
  const path = new URL(url).pathname;
  const source = await readFile(new URL(url), 'utf8');
  const output = ts.transpileModule(source, {
    fileName: decodeURIComponent(path),
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      inlineSourceMap: true,
      inlineSources: true,
    },
  });
  return { format: 'module', source: output.outputText, shortCircuit: true };
}
