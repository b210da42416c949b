import { availableParallelism } from 'node:os';
import { parseDurationMs } from '../kernel/clock.js';

/**
 * Option checks of everything that runs seeds on threads (sweep, compare, a queue worker): one wording for
 * each refusal, and one error type the commands turn into a one-line message and exit code 2.
 */
export class UsageError extends Error {}

/** 30 minutes: over 20 times the smoke scenario's 60-80 s per seed on a 2-core machine. */
export const DEFAULT_SEED_TIMEOUT = '30m';

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
