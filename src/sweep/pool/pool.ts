import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ScenarioStartError, SweepAborted } from '../aborted.js';
import { errorMessage, unfinishedSeed, type SeedResult, type SeedTask } from '../seed-result.js';
import { localThreads } from '../sweep-options.js';
import { workerEntryFile } from './built-file.js';

/**
 * Seeds on a piscina pool of worker threads, one seed per task. Each seed has a timeout that starts when
 * its thread takes it (not while it waits), enforced by aborting the task: piscina then terminates that
 * thread, even one stuck in a loop, and starts a fresh one. A timeout or a dead thread is that seed's
 * result, never the sweep's end. Timeouts are timers; nothing here reads the clock.
 */
export class SeedPool<Task extends { seed: number } = SeedTask, Result extends SeedResult = SeedResult> {
  readonly threads: number;
  readonly #pool: Piscina<Task, Result>;
  readonly #broken = new AbortController();
  #early: EarlyStart<Task, Result> | undefined;

  /**
   * `filename`: the threads' entry as a file URL (see poolWorkerFile), by default the compiled pool-worker.js
   * (a test gives one that cannot load).
   */
  constructor(options: { threads: number; filename?: string }) {
    this.threads = options.threads;
    this.#pool = new Piscina<Task, Result>({
      filename: options.filename ?? poolWorkerFile(),
      minThreads: options.threads,
      maxThreads: options.threads,
      // One task per thread at a time: a seed is CPU-bound, and its timeout must not count a queue wait.
      concurrentTasksPerWorker: 1,
      // The engine pool's size never changes an answer; one stockfish instance per sweep thread, not one per CPU each.
      // eslint-disable-next-line no-restricted-properties -- the threads inherit the environment, as any child does
      env: { ...process.env, ACS_ENGINE_POOL: process.env['ACS_ENGINE_POOL'] || '1' },
    });
    // A thread that fails while running no task (its code does not load, say) is reported here, not to a
    // task; piscina then stops replacing threads, and the seeds waiting for one would each wait out their
    // timeout. So such a failure ends the seeds in flight and every later one at once, as crashed.
    this.#pool.on('error', (error: unknown) => this.#broken.abort(new Error(errorMessage(error))));
  }

  /** Runs one seed. Throws only when `signal` (the user's stop) aborts it. */
  async run(task: Task, seedTimeoutMs: number, signal?: AbortSignal): Promise<Result | SeedResult> {
    const started = this.#takeEarly(task);
    if (started) return this.#early!.follow(started, signal);
    return this.#runNow(task, seedTimeoutMs, signal);
  }

  async #runNow(task: Task, seedTimeoutMs: number, signal?: AbortSignal): Promise<Result | SeedResult> {
    const timeout = AbortSignal.timeout(seedTimeoutMs);
    const broken = this.#broken.signal;
    try {
      return await this.#pool.run(task, {
        signal: AbortSignal.any(signal ? [signal, timeout, broken] : [timeout, broken]),
      });
    } catch (error) {
      if (signal?.aborted) throw new SweepAborted();
      if (broken.aborted)
        return unfinishedSeed(
          task.seed,
          'crashed',
          `the worker threads failed: ${errorMessage(broken.reason)}`,
        );
      if (timeout.aborted)
        return unfinishedSeed(
          task.seed,
          'timed_out',
          `no result within ${formatSeconds(seedTimeoutMs)}; the thread was stopped`,
        );
      return unfinishedSeed(task.seed, 'crashed', `the worker thread died: ${errorMessage(error)}`);
    }
  }

  /**
   * Runs the threads' `scenarioStartProblem` (run-seed.ts) on one thread: the scenario's ScenarioError text, or
   * null. Only that refusal is the check's to report: any other failure (threads that cannot load, a thread
   * that dies) answers null, and the seeds, which meet it too, each report it as their crash. When
   * `startEarly` began the check of the same scenario, its answer.
   */
  async startProblem(scenario: ScenarioSource, signal?: AbortSignal): Promise<string | null> {
    const early = this.#early;
    if (early === undefined || !sameScenario(early.scenario, scenario))
      return this.#startCheck(scenario, signal);
    return early.follow(early.problem, signal);
  }

  /**
   * Starts a sweep's first work now, for a caller that has the scenario's text but not yet its plan (the
   * sweep command: its threads are up before this thread has loaded the scenario's code): the start check,
   * one of `tasks` on each other thread, and the next on the check's thread once the check passes, so that
   * no thread waits for the plan (issue 32, P6). None waits in the queue with its timeout running. A later
   * startProblem of the same scenario, or run of the same task, takes what these started instead of
   * starting it again; a refused scenario's seed after the check is never run (the sweep ends on the refusal).
   */
  startEarly(scenario: ScenarioSource, tasks: readonly Task[], seedTimeoutMs: number): void {
    const stop = new AbortController();
    const problem = this.#startCheck(scenario, stop.signal);
    const runs = tasks
      .slice(0, this.threads - 1)
      .map((task) => ({ task, result: this.#runNow(task, seedTimeoutMs, stop.signal) }));
    // The check's thread goes on to the next seed as soon as the check passes, not when the plan is made.
    const next = tasks[this.threads - 1];
    if (next !== undefined) {
      const afterCheck = problem.then((refusal) =>
        refusal === null
          ? this.#runNow(next, seedTimeoutMs, stop.signal)
          : unfinishedSeed(next.seed, 'crashed', 'the scenario does not start'),
      );
      runs.push({ task: next, result: afterCheck });
    }
    // Nobody awaits them when the plan refuses the scenario: a stop (only ever a taker's) is no unhandled rejection.
    for (const started of [problem, ...runs.map((r) => r.result)]) started.catch(() => undefined);
    /** A started promise, stopped by the taker's signal (which was not there to pass when it started). */
    const follow = <T>(started: Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
      if (signal?.aborted) stop.abort();
      else signal?.addEventListener('abort', () => stop.abort(), { once: true });
      return started;
    };
    this.#early = { scenario, problem, runs, follow };
  }

  async #startCheck(scenario: ScenarioSource, signal: AbortSignal | undefined): Promise<string | null> {
    const broken = this.#broken.signal;
    // The entry's named export takes a scenario, not a Task: piscina's typing knows one task type per pool.
    const pool = this.#pool as unknown as Piscina<ScenarioSource, string | null>;
    try {
      return await pool.run(scenario, {
        name: 'scenarioStartProblem',
        signal: AbortSignal.any(signal ? [signal, broken] : [broken]),
      });
    } catch {
      if (signal?.aborted) throw new SweepAborted();
      return null;
    }
  }

  /** The run startEarly began for this task, once. */
  #takeEarly(task: Task): Promise<Result | SeedResult> | undefined {
    const runs = this.#early?.runs;
    const index = runs?.findIndex((started) => sameFields(started.task, task)) ?? -1;
    return index < 0 ? undefined : runs!.splice(index, 1)[0]!.result;
  }

  /** Terminates every thread, running seeds included. */
  async destroy(): Promise<void> {
    await this.#pool.destroy();
  }
}

export interface LocalRunOptions {
  workers: number;
  seedTimeoutMs: number;
  signal?: AbortSignal;
  onResult?: (result: SeedResult) => void;
  /**
   * A pool to run on and leave open (a bench keeps its threads warm; the sweep command starts them before it
   * loads the scenario); by default one is made and destroyed.
   */
  pool?: SeedPool;
  /**
   * Check first, on the first thread free, that this scenario starts (`SeedPool.startProblem`), while the
   * other threads begin the seeds; a refusal ends the sweep with a ScenarioStartError.
   */
  startCheck?: ScenarioSource;
}

/** The scenario's text and the path it was given as, as a seed task carries them. */
export type ScenarioSource = Omit<SeedTask, 'seed'>;

/** What SeedPool.startEarly started, for the calls that take it. */
interface EarlyStart<Task, Result> {
  scenario: ScenarioSource;
  problem: Promise<string | null>;
  runs: Array<{ task: Task; result: Promise<Result | SeedResult> }>;
  follow: <T>(started: Promise<T>, signal: AbortSignal | undefined) => Promise<T>;
}

function sameScenario(a: ScenarioSource, b: ScenarioSource): boolean {
  return a.scenarioFile === b.scenarioFile && a.scenarioText === b.scenarioText;
}

/** Two tasks alike field by field (a plan makes its own task objects). */
function sameFields(a: object, b: object): boolean {
  const [keysA, keysB] = [Object.keys(a), Object.keys(b)];
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key])
  );
}

/** Every task on a pool of `workers` threads, at most one seed per thread at a time; results in finishing order. */
export async function runSeedsLocally(
  tasks: readonly SeedTask[],
  options: LocalRunOptions,
): Promise<SeedResult[]> {
  const pool = options.pool ?? new SeedPool({ threads: localThreads(options.workers, tasks.length) });
  const results: SeedResult[] = [];
  const gate = new StartGate(options);
  let next = 0;
  const lane = async (_: unknown, index: number) => {
    if (index === 0) await gate.check(pool);
    while (next < tasks.length) {
      if (gate.signal.aborted) throw new SweepAborted();
      const result = await pool.run(tasks[next++]!, options.seedTimeoutMs, gate.signal);
      results.push(result);
      gate.report(result);
    }
  };
  try {
    await Promise.all(Array.from({ length: pool.threads }, lane));
  } catch (error) {
    throw gate.refusal ?? error;
  } finally {
    if (!options.pool) await pool.destroy();
  }
  return results;
}

/**
 * A local sweep's start check (`startCheck`), run beside the first seeds: their results wait until it
 * passes, so a scenario that does not start reports no seed, and its refusal stops every lane.
 */
class StartGate {
  readonly signal: AbortSignal;
  refusal: ScenarioStartError | undefined;
  readonly #options: LocalRunOptions;
  readonly #refused = new AbortController();
  #held: SeedResult[] | undefined;

  constructor(options: LocalRunOptions) {
    this.#options = options;
    this.signal = options.signal
      ? AbortSignal.any([options.signal, this.#refused.signal])
      : this.#refused.signal;
    this.#held = options.startCheck ? [] : undefined;
  }

  /** Runs the check (the first lane, before its first seed): passes the held results on, or throws the refusal. */
  async check(pool: SeedPool): Promise<void> {
    if (!this.#options.startCheck) return;
    const problem = await pool.startProblem(this.#options.startCheck, this.#options.signal);
    if (problem !== null) {
      this.refusal = new ScenarioStartError(problem);
      this.#refused.abort(this.refusal);
      // Thrown even when the other lanes have run every seed meanwhile (a refused scenario's seeds fail fast).
      throw this.refusal;
    }
    const held = this.#held ?? [];
    this.#held = undefined;
    for (const result of held) this.#options.onResult?.(result);
  }

  /** A seed's result, passed on now, or once the check has passed. */
  report(result: SeedResult): void {
    if (this.#held) this.#held.push(result);
    else this.#options.onResult?.(result);
  }
}

/**
 * The threads' entry, as a file URL: the build's CommonJS bundle of pool-worker.js (pool-worker.cjs: a few
 * small modules, loaded without starting the ES module loader, which took each thread about 0.1 s), or
 * pool-worker.js itself when the bundle is older (after a bare tsc). Threads run plain JavaScript, so under
 * vitest (this module is then the .ts source) the pool still points at the build in dist/, which `npm test`
 * makes first.
 *
 * piscina turns the URL into a path and first tries `require(path)`, then `import()`. A require of the
 * CommonJS bundle is plain; one of pool-worker.js is Node 20.19+'s require of an ES module. That is why the
 * entry has no top-level await: a require of such a module throws, and piscina then imports it a second
 * time. (Once, in the suite beside a CPU-heavy process, Node aborted inside such a require of a module an
 * import() in the same thread had not finished linking: FATAL ERROR: v8::Module::IsGraphAsync.)
 */
export function poolWorkerFile(): string {
  const bundle = workerEntryFile(import.meta.url, './pool-worker.cjs');
  const modules = workerEntryFile(import.meta.url, './pool-worker.js');
  const path = (url: string) => fileURLToPath(url);
  const current =
    existsSync(path(bundle)) && statSync(path(bundle)).mtimeMs >= statSync(path(modules)).mtimeMs;
  return current ? bundle : modules;
}

export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
