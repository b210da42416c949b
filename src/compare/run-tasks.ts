import { SweepAborted } from '../sweep/aborted.js';
import { SeedPool } from '../sweep/pool/pool.js';
import type { SeedResult, SeedTask } from '../sweep/seed-result.js';

export interface TaskRunOptions {
  workers: number;
  seedTimeoutMs: number;
  /** The user's stop (Ctrl-C): the run throws SweepAborted. */
  signal?: AbortSignal;
  /** Each result with its task's index, in finishing order. */
  onResult: (index: number, result: SeedResult) => void;
  /** Once this answers true no task starts, and those running are abandoned (an SPRT that has decided). */
  enough?: () => boolean;
}

/**
 * Runs tasks on the sweep's seed pool, at most one per thread at a time, taking them in the order given,
 * and reports each result with its index: several tasks share a seed here (one per side, or per game of a
 * pair), so a result's seed alone does not say whose it is. Nothing here depends on which thread finishes
 * first: callers put results back in task order.
 */
export async function runTasks(tasks: readonly SeedTask[], options: TaskRunOptions): Promise<void> {
  if (tasks.length === 0) return;
  const pool = new SeedPool({ threads: Math.max(1, Math.min(options.workers, tasks.length)) });
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length && !options.enough?.()) {
      if (options.signal?.aborted) throw new SweepAborted();
      const index = next++;
      const result = await runOne(pool, tasks[index]!, options, signal);
      if (result === undefined) return;
      options.onResult(index, result);
      if (options.enough?.()) stop.abort();
    }
  };
  try {
    await Promise.all(Array.from({ length: pool.threads }, lane));
  } finally {
    await pool.destroy();
  }
}

/** One task's result; undefined when it was abandoned because enough results were in. */
async function runOne(
  pool: SeedPool,
  task: SeedTask,
  options: TaskRunOptions,
  signal: AbortSignal,
): Promise<SeedResult | undefined> {
  try {
    return await pool.run(task, options.seedTimeoutMs, signal);
  } catch (error) {
    if (error instanceof SweepAborted && !options.signal?.aborted) return undefined;
    throw error;
  }
}
