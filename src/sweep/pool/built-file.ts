import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { packageRoot } from '../version.js';

/**
 * A file of the build, `file` relative to the module at `moduleUrl`, as a file URL: beside it when that
 * module is itself the build, else the build's copy in dist/ (under vitest the module is the .ts source).
 * Threads run plain JavaScript and the bundles exist only in dist/, which `npm test` builds first.
 */
export function workerEntryFile(moduleUrl: string, file: string): string {
  if (moduleUrl.endsWith('.js')) return new URL(file, moduleUrl).href;
  const source = fileURLToPath(new URL(file, moduleUrl));
  const built = join(packageRoot(), 'dist', relative(packageRoot(), source));
  if (!existsSync(built)) throw new Error(`${built} is missing: run npm run build first`);
  return pathToFileURL(built).href;
}
