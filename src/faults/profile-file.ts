import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { FaultProfileError, parseFaultProfile, type FaultProfile } from './profile.js';

/**
 * A fault profile from a YAML (or JSON) file or from a record already in memory, or one line naming its first
 * problems. `serve --faults` and `startTwin({ faults })` both read profiles through here, each prefixing the
 * line with the name its user wrote (`--faults FILE`, `faults`).
 */
export function faultProfileFrom(source: string | Record<string, unknown>): FaultProfile | string {
  const label = typeof source === 'string' ? source : 'faults';
  let raw: unknown = source;
  try {
    if (typeof source === 'string') raw = parseYaml(readFileSync(source, 'utf8'));
  } catch (error) {
    return (error as Error).message.split('\n')[0]!;
  }
  try {
    return parseFaultProfile(raw, label);
  } catch (error) {
    if (!(error instanceof FaultProfileError)) throw error;
    const shown = error.problems.slice(0, 3).join('; ');
    const more = error.problems.length > 3 ? ` (and ${error.problems.length - 3} more)` : '';
    return `invalid fault profile: ${shown}${more}`;
  }
}

/** `--faults FILE`: the profile, or one line naming the file and its first problems. */
export function loadFaultProfileFile(path: string): FaultProfile | string {
  const loaded = faultProfileFrom(path);
  return typeof loaded === 'string' ? `--faults ${path}: ${loaded}` : loaded;
}
