import { availableParallelism } from 'node:os';
import { parseDurationMs } from '../kernel/clock.js';

/**
 * Option checks the commands that run seeds share (sweep, compare, worker): one wording for each refusal,
 * and one error type the commands turn into a one-line message and exit code 2.
 */
export class UsageError extends Error {}

const MAX_WORKERS = 256;

/** `--workers`, or the CPU count when not given. */
export function workerThreads(given: number | undefined): number {
  const workers = given ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1 || workers > MAX_WORKERS)
    throw new UsageError(`--workers: must be an integer from 1 to ${MAX_WORKERS}, got ${given}`);
  return workers;
}

/** A duration option in milliseconds; refused unless positive and with a unit. */
export function positiveDuration(text: string, option: string): number {
  const ms = parseDurationMs(text);
  if (ms === undefined || ms <= 0)
    throw new UsageError(`${option}: "${text}" is not a positive duration such as 90s, 30m or 2h`);
  return ms;
}

/** Options whose value may begin with a minus sign, which yargs would read as short flags (`-5..-1` as -5, -., ...). */
const SIGNED_VALUE_OPTIONS = new Set(['--seeds', '--seed']);

/**
 * argv with `--seeds -5..-1` joined into `--seeds=-5..-1`, so that the option's own check refuses the value
 * in its own words (seeds are non-negative) instead of yargs answering "Unknown argument: 5".
 */
export function joinSignedValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return [...out, ...argv.slice(i)];
    const next = argv[i + 1];
    if (SIGNED_VALUE_OPTIONS.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}
