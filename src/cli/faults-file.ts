import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { FaultProfileError, parseFaultProfile, type FaultProfile } from '../faults/profile.js';

/** `--faults FILE`: a fault profile from YAML (or JSON), or one line naming the file and its first problems. */
export function loadFaultProfileFile(path: string): FaultProfile | string {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    return `--faults ${path}: ${(error as Error).message.split('\n')[0]}`;
  }
  try {
    return parseFaultProfile(raw, path);
  } catch (error) {
    if (!(error instanceof FaultProfileError)) throw error;
    const shown = error.problems.slice(0, 3).join('; ');
    const more = error.problems.length > 3 ? ` (and ${error.problems.length - 3} more)` : '';
    return `--faults ${path}: invalid fault profile: ${shown}${more}`;
  }
}
