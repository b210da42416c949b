import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Helpers of the compare tests; the CLI itself runs through test/sweep/helpers.ts `cli` (dist/, built by pretest). */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'acs-compare-'));
}

/**
 * Six random players for four virtual hours, polling every 10-20 s: about 17 finished games a seed, under
 * a second a run, and enough rated games that the K factor shows in the Elo spread.
 */
export function writeTinyScenario(dir: string): string {
  const file = join(dir, 'tiny.yaml');
  const text = [
    'name: tiny',
    'seed: 1',
    'start: 2026-01-01T00:00:00Z',
    'duration: 4h',
    'population:',
    '  - persona: random',
    '    count: 6',
    '    heartbeat: { min: 10s, max: 20s }',
    '    options: { maxGames: 1 }',
    '',
  ].join('\n');
  writeFileSync(file, text);
  return file;
}
