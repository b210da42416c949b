import { Queue, QueueEvents } from 'bullmq';
import { SweepAborted } from '../aborted.js';
import {
  checkReachable,
  closeAll,
  CLOSE_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  ErrorLatch,
  within,
  type SeedJob,
} from './queue.js';
import { redisConnection } from './redis-url.js';
import { unfinishedSeed, type SeedResult, type SeedTask } from '../seed-result.js';

/** The producer side of the queue (`sweep --queue`): one job per seed in, one result per seed out. */

/** How often the producer asks Redis for jobs whose finishing event it may have missed, and about how many (the oldest pending). */
const RECONCILE_MS = 2_000;
const RECONCILE_BATCH = 500;
/** Jobs per addBulk call: each carries the scenario's text, so a 100,000-seed sweep goes in pieces. */
const ADD_BATCH = 500;
/** Finished jobs BullMQ keeps when nobody removes them (a producer that died): a day. */
const KEEP_FINISHED_S = 86_400;

export interface QueueRunOptions {
  url: string;
  queueName: string;
  /** Unique per sweep (the CLI draws it): job ids are `<sweep>-<seed>`, so sweeps can share a queue. */
  sweepId: string;
  version: string;
  seedTimeoutMs: number;
  /** The seeds still pending are reported lost when no seed finishes for this long. */
  idleLimitMs: number;
  signal?: AbortSignal;
  onResult?: (result: SeedResult) => void;
  onNotice?: (line: string) => void;
}

/** Enqueues every task and collects one result per seed (in finishing order). */
export async function runSeedsOnQueue(
  tasks: readonly SeedTask[],
  options: QueueRunOptions,
): Promise<SeedResult[]> {
  await checkReachable(options.url);
  const connection = redisConnection(options.url);
  const queue = new Queue<SeedJob, SeedResult>(options.queueName, { connection });
  const events = new QueueEvents(options.queueName, { connection });
  const errors = new ErrorLatch(queue, events);
  const collector = new Collector(tasks, options, queue);
  let added = false;
  try {
    await within(
      Promise.all([queue.waitUntilReady(), events.waitUntilReady()]),
      CONNECT_TIMEOUT_MS,
      `cannot reach Redis at ${options.url}${errors.suffix()}`,
    );
    events.on('completed', ({ jobId, returnvalue }) => collector.complete(jobId, returnvalue));
    events.on('failed', ({ jobId, failedReason }) => collector.fail(jobId, failedReason));
    added = true; // from the first batch on, the finally below takes this sweep's jobs off the queue
    for (let i = 0; i < tasks.length; i += ADD_BATCH) {
      await queue.addBulk(
        tasks.slice(i, i + ADD_BATCH).map((task) => ({
          name: 'seed',
          data: seedJob(task, options),
          opts: jobOptions(options.sweepId, task.seed),
        })),
      );
    }
    const workers = await queue.getWorkersCount().catch(() => undefined); // CLIENT LIST may be disabled on a managed Redis
    if (workers === 0)
      options.onNotice?.(
        `no worker is connected to queue ${options.queueName} yet; start one with: npx agent-chess-sim worker --queue ${options.url}`,
      );
    return await collector.done();
  } finally {
    if (added) {
      const removed = await within(collector.removeJobs(), CLOSE_TIMEOUT_MS, 'removing jobs timed out').catch(
        () => 0,
      );
      if (options.signal?.aborted)
        options.onNotice?.(
          `removed ${removed} of this sweep's jobs from the queue; seeds already running finish on their workers and are ignored`,
        );
    }
    await closeAll([events, queue]);
  }
}

function seedJob(task: SeedTask, options: QueueRunOptions): SeedJob {
  return { sweep: options.sweepId, version: options.version, seedTimeoutMs: options.seedTimeoutMs, task };
}

function jobOptions(sweepId: string, seed: number) {
  return {
    jobId: jobIdOf(sweepId, seed),
    attempts: 1,
    removeOnComplete: { age: KEEP_FINISHED_S },
    removeOnFail: { age: KEEP_FINISHED_S },
  };
}

function jobIdOf(sweepId: string, seed: number): string {
  return `${sweepId}-${seed}`;
}

/**
 * Gathers results as the queue's events report them, and, every RECONCILE_MS, asks Redis about jobs whose
 * event it may have missed (one that finished before the event stream was read). Ends when every seed has
 * a result, when the user stops it (SweepAborted), or when nothing finished for `idleLimitMs`, which
 * makes every seed still pending `lost`.
 */
class Collector {
  readonly #pending = new Map<string, SeedTask>();
  readonly #results: SeedResult[] = [];
  readonly #options: QueueRunOptions;
  readonly #queue: Queue<SeedJob, SeedResult>;
  readonly #jobIds: string[];
  #wake: () => void = () => {};

  constructor(tasks: readonly SeedTask[], options: QueueRunOptions, queue: Queue<SeedJob, SeedResult>) {
    this.#options = options;
    this.#queue = queue;
    for (const task of tasks) this.#pending.set(jobIdOf(options.sweepId, task.seed), task);
    this.#jobIds = [...this.#pending.keys()];
  }

  complete(jobId: string, result: unknown): void {
    const task = this.#pending.get(jobId);
    if (!task) return;
    const valid = looksLikeSeedResult(result) && result.seed === task.seed;
    this.#settle(
      jobId,
      valid
        ? result
        : unfinishedSeed(task.seed, 'lost', `job ${jobId} returned no result for seed ${task.seed}`),
    );
  }

  fail(jobId: string, reason: string): void {
    const task = this.#pending.get(jobId);
    if (!task) return;
    const stalled = /stalled more than allowable limit/.test(reason);
    this.#settle(
      jobId,
      unfinishedSeed(
        task.seed,
        'lost',
        stalled
          ? 'the workers running it died or stopped too often (BullMQ: job stalled more than allowable limit)'
          : `the worker failed the job: ${reason}`,
      ),
    );
  }

  #settle(jobId: string, result: SeedResult): void {
    this.#pending.delete(jobId);
    this.#results.push(result);
    this.#options.onResult?.(result);
    this.#wake();
  }

  async done(): Promise<SeedResult[]> {
    const { signal, idleLimitMs } = this.#options;
    let idleMs = 0;
    while (this.#pending.size > 0) {
      if (signal?.aborted) throw new SweepAborted();
      const before = this.#results.length;
      await this.#sleep(RECONCILE_MS, signal);
      if (this.#pending.size > 0) await this.#reconcile();
      idleMs = this.#results.length > before ? 0 : idleMs + RECONCILE_MS;
      if (idleMs >= idleLimitMs) this.#giveUp();
    }
    return this.#results;
  }

  /** Waits `ms`, or less when a result or the user's stop comes first. */
  #sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', finish);
        this.#wake = () => {};
        resolve();
      };
      const timer = setTimeout(finish, ms);
      signal?.addEventListener('abort', finish, { once: true });
      this.#wake = finish;
    });
  }

  async #reconcile(): Promise<void> {
    const oldest = [...this.#pending.keys()].slice(0, RECONCILE_BATCH);
    const jobs = await Promise.all(oldest.map((jobId) => this.#queue.getJob(jobId).catch(() => undefined)));
    for (const job of jobs) {
      if (!job?.id || !job.finishedOn) continue;
      if (job.returnvalue) this.complete(job.id, job.returnvalue);
      else if (job.failedReason) this.fail(job.id, job.failedReason);
    }
  }

  #giveUp(): void {
    const limit = Math.round(this.#options.idleLimitMs / 1000);
    for (const [jobId, task] of [...this.#pending.entries()]) {
      this.#settle(
        jobId,
        unfinishedSeed(
          task.seed,
          'lost',
          `no worker finished it; no seed finished for ${limit} s (is a worker running?)`,
        ),
      );
    }
  }

  /** Takes this sweep's jobs off the queue (finished ones, and waiting ones after a stop); running ones cannot be and age out. */
  async removeJobs(): Promise<number> {
    const removed = await Promise.all(this.#jobIds.map((jobId) => this.#queue.remove(jobId).catch(() => 0)));
    return removed.reduce((sum: number, n) => sum + n, 0);
  }
}

/** The shape of a SeedResult, checked on what a worker sent back before it goes into sweep.json. */
function looksLikeSeedResult(value: unknown): value is SeedResult {
  const r = value as Partial<SeedResult> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    Number.isSafeInteger(r.seed) &&
    typeof r.status === 'string' &&
    Array.isArray(r.invariants) &&
    (r.fingerprint === null || typeof r.fingerprint === 'string') &&
    (r.metrics === null || typeof r.metrics === 'object') &&
    (r.error === null || typeof r.error === 'string')
  );
}
