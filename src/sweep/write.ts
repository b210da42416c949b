import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes a sweep's files all at once or not at all: into a fresh temporary directory beside DIR, then
 * renamed into place. A new DIR appears whole; into an existing DIR each file is renamed over its old
 * version (each rename is atomic) and other files there are left alone. A reader never sees half a file.
 */
export function writeAtomically(outDir: string, files: Readonly<Record<string, string>>): string[] {
  const target = resolve(outDir);
  mkdirSync(dirname(target), { recursive: true });
  const temp = mkdtempSync(join(dirname(target), `.${basename(target)}.tmp-`));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(temp, name), text);
    if (!existsSync(target)) renameSync(temp, target);
    else for (const name of Object.keys(files)) renameSync(join(temp, name), join(target, name));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return Object.keys(files).map((name) => join(outDir, name));
}

/** Why `outDir` cannot receive the files (it is a file), or undefined: checked before any seed runs. */
export function outDirProblem(outDir: string): string | undefined {
  if (existsSync(outDir) && !statSync(outDir).isDirectory()) return `--out: ${outDir} exists and is not a directory`;
  return undefined;
}
