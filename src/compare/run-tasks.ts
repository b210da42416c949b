import { SweepAborted } from '../sweep/aborted.js';
import { workerEntryFile } from '../sweep/pool/built-file.js';
import { SeedPool } from '../sweep/pool/pool.js';
import type { SeedResult, SeedTask } from '../sweep/seed-result.js';
import type { DuelResult, DuelTask } from './duel.js';

export interface TaskRunOptions<Result extends SeedResult> {
  workers: number;
  seedTimeoutMs: number;
  /** The user's stop (Ctrl-C): the run throws SweepAborted. */
  signal?: AbortSignal;
  /** Each result with its task's index, in finishing order. */
  onResult: (index: number, result: Result) => void;
  /** Once this answers true no task starts, and those running are abandoned (an SPRT that has decided). */
  enough?: () => boolean;
}

/** Runs (scenario, seed) tasks, a ruleset comparison's, on the sweep's own thread entry. */
export function runSeedTasks(tasks: readonly SeedTask[], options: TaskRunOptions<SeedResult>): Promise<void> {
  return runTasks((threads) => new SeedPool<SeedTask>({ threads }), tasks, options);
}

/** Runs duel worlds, an agent comparison's, on the duel thread entry (src/compare/duel-worker.ts). */
export function runDuelTasks(tasks: readonly DuelTask[], options: TaskRunOptions<DuelResult>): Promise<void> {
  const filename = workerEntryFile(import.meta.url, './duel-worker.js');
  return runTasks((threads) => new SeedPool<DuelTask, DuelResult>({ threads, filename }), tasks, options);
}

/**
 * Runs tasks on a seed pool, at most one per thread at a time, taking them in the order given, and reports
 * each result with its index: several tasks share a seed here (one per side, or per game of a pair), so a
 * result's seed alone does not say whose it is. Nothing here depends on which thread finishes first:
 * callers put results back in task order. The pool is destroyed at the end.
 */
async function runTasks<Task extends { seed: number }, Result extends SeedResult>(
  poolOf: (threads: number) => SeedPool<Task, Result>,
  tasks: readonly Task[],
  options: TaskRunOptions<Result>,
): Promise<void> {
  if (tasks.length === 0) return;
  const pool = poolOf(Math.max(1, Math.min(options.workers, tasks.length)));
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
async function runOne<Task extends { seed: number }, Result extends SeedResult>(
  pool: SeedPool<Task, Result>,
  task: Task,
  options: TaskRunOptions<Result>,
  signal: AbortSignal,
): Promise<Result | undefined> {
  try {
    // A task that ended without a run (timeout, dead thread) is a bare seed result: no field of Result's own.
    return (await pool.run(task, options.seedTimeoutMs, signal)) as Result;
  } catch (error) {
    if (error instanceof SweepAborted && !options.signal?.aborted) return undefined;
    throw error;
  }
}
