import { isRecord } from '../../kernel/records.js';
import type { InvariantModuleSpec } from '../invariants/user-invariants.js';
import { checkModulePath } from './scenario-population.js';

/** The scenario's `invariants:` list, checked like agent module paths. */
export function checkInvariantList(
  value: unknown,
  problems: string[],
  baseDir: string | undefined,
): InvariantModuleSpec[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) {
    problems.push('invariants: must be a list of { module: ./path/to/check.mjs }');
    return undefined;
  }
  return value.flatMap((entry, i) => {
    const field = `invariants[${i}]`;
    if (!isRecord(entry) || Object.keys(entry).some((k) => k !== 'module')) {
      problems.push(`${field}: must be { module: ./path/to/check.mjs } and nothing else`);
      return [];
    }
    const module = checkModulePath(
      entry['module'],
      `${field}.module`,
      'an invariant module, e.g. ./checks/no-timeouts.mjs',
      problems,
      baseDir,
    );
    return module ? [module] : [];
  });
}
