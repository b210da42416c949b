import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes a sweep's files whole or not at all: all of them into a fresh staging folder beside DIR first, then
 * each renamed into DIR (a rename is atomic), the first named file (sweep.json, shard.json) last, so that
 * once it is new the others are too. A reader never sees half a file; other files in DIR are left alone.
 * DIR is made with mkdir rather than by renaming the staging folder, which mkdtemp makes private (0700).
 */
export function writeAtomically(outDir: string, files: Readonly<Record<string, string>>): string[] {
  const target = resolve(outDir);
  mkdirSync(dirname(target), { recursive: true });
  const temp = mkdtempSync(join(dirname(target), `.${basename(target)}.partial-`));
  const [last, ...first] = Object.keys(files);
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(temp, name), text);
    mkdirSync(target, { recursive: true });
    for (const name of [...first, last!]) renameSync(join(temp, name), join(target, name));
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return Object.keys(files).map((name) => join(outDir, name));
}

/** Why `outDir` cannot receive the files (it is a file), or undefined: checked before any seed runs. */
export function outDirProblem(outDir: string): string | undefined {
  if (existsSync(outDir) && !statSync(outDir).isDirectory())
    return `--out: ${outDir} exists and is not a directory`;
  return undefined;
}
