import { Queue, QueueEvents, UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { SweepAborted } from './aborted.js';
import { SeedPool } from './pool.js';
import { QueueSetupError, redisConnection } from './redis-url.js';
import { errorMessage, unfinishedSeed, type SeedResult, type SeedTask } from './seed-result.js';

/**
 * Seeds on a BullMQ queue in Redis: the producer (`sweep --queue`) adds one job per seed and collects the
 * results; any number of `worker` processes, on any machines, run them on their own piscina pools. A job
 * whose worker dies loses its lock and BullMQ's stalled-job check, run by the other workers, puts it back
 * in the queue for another worker; after `maxStalled` such recoveries it fails and the seed is reported
 * lost. The result of a seed is the same record a local sweep makes (the same runSeed), so the producer
 * writes the same sweep.json. Every wait here has a bound.
 */
/** What one job carries: the seed's task, and what the worker must agree with. */
export interface SeedJob {
  sweep: string;
  version: string;
  seedTimeoutMs: number;
  task: SeedTask;
}

const CONNECT_TIMEOUT_MS = 10_000;
const CLOSE_TIMEOUT_MS = 5_000;
/** How often the producer asks Redis for jobs whose finishing event it may have missed, and about how many (the oldest pending). */
const RECONCILE_MS = 2_000;
const RECONCILE_BATCH = 500;
/** Jobs per addBulk call: each carries the scenario's text, so a 100,000-seed sweep goes in pieces. */
const ADD_BATCH = 500;
/** Finished jobs BullMQ keeps when nobody removes them (a producer that died): a day. */
const KEEP_FINISHED_S = 86_400;

/** A worker that cannot reach Redis for this many health checks in a row (one each 5 s) exits. */
const MAX_FAILED_PINGS = 12;
const PING_EVERY_MS = 5_000;

/**
 * One connection attempt, no retries: an unreachable Redis is a one-line error at once, before BullMQ's
 * connections (which retry with backoff) exist.
 */
async function checkReachable(url: string): Promise<void> {
  const probe = new Redis({ ...redisConnection(url), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: CONNECT_TIMEOUT_MS });
  let cause: string | undefined; // the socket's error (ECONNREFUSED...); connect() rejects only with "Connection is closed"
  probe.on('error', (error: Error) => (cause ??= errorMessage(error)));
  try {
    await within(probe.connect().then(() => probe.ping()), CONNECT_TIMEOUT_MS, 'no answer');
  } catch (error) {
    throw new QueueSetupError(`cannot reach Redis at ${url}: ${cause ?? errorMessage(error)}`);
  } finally {
    probe.disconnect();
  }
}

/** Resolves with `promise`, or rejects with `message` after `ms`. */
export async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expiry = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueueSetupError(message)), ms);
  });
  try {
    return await Promise.race([promise, expiry]);
  } finally {
    clearTimeout(timer);
  }
}

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
export async function runSeedsOnQueue(tasks: readonly SeedTask[], options: QueueRunOptions): Promise<SeedResult[]> {
  await checkReachable(options.url);
  const connection = redisConnection(options.url);
  const queue = new Queue<SeedJob, SeedResult>(options.queueName, { connection });
  const events = new QueueEvents(options.queueName, { connection });
  const errors = new ErrorLatch(queue, events);
  const collector = new Collector(tasks, options, queue);
  let added = false;
  try {
    await within(Promise.all([queue.waitUntilReady(), events.waitUntilReady()]), CONNECT_TIMEOUT_MS, `cannot reach Redis at ${options.url}${errors.suffix()}`);
    events.on('completed', ({ jobId, returnvalue }) => collector.complete(jobId, returnvalue));
    events.on('failed', ({ jobId, failedReason }) => collector.fail(jobId, failedReason));
    added = true; // from the first batch on, the finally below takes this sweep's jobs off the queue
    for (let i = 0; i < tasks.length; i += ADD_BATCH) {
      await queue.addBulk(tasks.slice(i, i + ADD_BATCH).map((task) => ({ name: 'seed', data: seedJob(task, options), opts: jobOptions(options.sweepId, task.seed) })));
    }
    const workers = await queue.getWorkersCount().catch(() => undefined); // CLIENT LIST may be disabled on a managed Redis
    if (workers === 0) options.onNotice?.(`no worker is connected to queue ${options.queueName} yet; start one with: npx agent-chess-sim worker --queue ${options.url}`);
    return await collector.done();
  } finally {
    if (added) {
      const removed = await within(collector.removeJobs(), CLOSE_TIMEOUT_MS, 'removing jobs timed out').catch(() => 0);
      if (options.signal?.aborted) options.onNotice?.(`removed ${removed} of this sweep's jobs from the queue; seeds already running finish on their workers and are ignored`);
    }
    await closeAll([events, queue]);
  }
}

function seedJob(task: SeedTask, options: QueueRunOptions): SeedJob {
  return { sweep: options.sweepId, version: options.version, seedTimeoutMs: options.seedTimeoutMs, task };
}

function jobOptions(sweepId: string, seed: number) {
  return { jobId: jobIdOf(sweepId, seed), attempts: 1, removeOnComplete: { age: KEEP_FINISHED_S }, removeOnFail: { age: KEEP_FINISHED_S } };
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
    this.#settle(jobId, valid ? result : unfinishedSeed(task.seed, 'lost', `job ${jobId} returned no result for seed ${task.seed}`));
  }

  fail(jobId: string, reason: string): void {
    const task = this.#pending.get(jobId);
    if (!task) return;
    const stalled = /stalled more than allowable limit/.test(reason);
    this.#settle(jobId, unfinishedSeed(task.seed, 'lost', stalled ? 'the workers running it died or stopped too often (BullMQ: job stalled more than allowable limit)' : `the worker failed the job: ${reason}`));
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
      this.#settle(jobId, unfinishedSeed(task.seed, 'lost', `no worker finished it; no seed finished for ${limit} s (is a worker running?)`));
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
    typeof r === 'object' && r !== null && Number.isSafeInteger(r.seed) && typeof r.status === 'string' && Array.isArray(r.invariants) &&
    (r.fingerprint === null || typeof r.fingerprint === 'string') && (r.metrics === null || typeof r.metrics === 'object') && (r.error === null || typeof r.error === 'string')
  );
}

export interface WorkerServeOptions {
  url: string;
  queueName: string;
  concurrency: number;
  version: string;
  /** BullMQ's lock on a running job; a dead worker's job is recovered once it expires. */
  lockMs: number;
  /** How often this worker checks for other workers' stalled jobs. */
  stalledMs: number;
  /** Recoveries a job gets before it fails (BullMQ's maxStalledCount). */
  maxStalled: number;
  /** Exit after this long with no job running (undefined: run until stopped). */
  idleExitMs?: number;
  signal: AbortSignal;
  log: (line: string) => void;
}

/**
 * Runs seeds from the queue until `signal` aborts, the idle limit passes, or Redis stays unreachable.
 * Stopping is immediate: the seeds this worker was running keep their jobs, whose locks expire and which
 * another worker then takes again. Returns how many seeds it finished.
 */
export async function serveQueue(options: WorkerServeOptions): Promise<number> {
  await checkReachable(options.url);
  const pool = new SeedPool({ threads: options.concurrency });
  let finished = 0;
  let running = 0;
  const worker = new Worker<SeedJob, SeedResult>(
    options.queueName,
    async (job) => {
      running++;
      try {
        const result = await runJob(job, pool, options);
        finished++;
        return result;
      } finally {
        running--;
      }
    },
    {
      connection: redisConnection(options.url),
      concurrency: options.concurrency,
      lockDuration: options.lockMs,
      // Renewed three times per lock period: a late renewal on a loaded machine must not lose the lock.
      lockRenewTime: Math.max(1, Math.floor(options.lockMs / 3)),
      stalledInterval: options.stalledMs,
      maxStalledCount: options.maxStalled,
      autorun: false,
    },
  );
  const errors = new ErrorLatch(worker);
  try {
    await within(worker.waitUntilReady(), CONNECT_TIMEOUT_MS, `cannot reach Redis at ${options.url}${errors.suffix()}`);
    void worker.run().catch((error: unknown) => options.log(`worker stopped: ${errorMessage(error)}`));
    options.log(`worker ready: queue ${options.queueName} at ${options.url}, ${options.concurrency} thread(s), agent-chess-sim ${options.version}`);
    await waitUntilStopped(options, () => running, new RedisProbe(options.url));
    return finished;
  } finally {
    await closeAll([{ close: () => worker.close(true), disconnect: () => worker.disconnect() }]);
    await pool.destroy();
  }
}

async function runJob(job: Job<SeedJob, SeedResult>, pool: SeedPool, options: WorkerServeOptions): Promise<SeedResult> {
  const { sweep, version, task, seedTimeoutMs } = job.data;
  if (version !== options.version) throw new UnrecoverableError(`worker runs agent-chess-sim ${options.version}, the sweep ${version}`);
  options.log(`seed ${task.seed} started (sweep ${sweep}, job ${job.id})`);
  try {
    const result = await pool.run(task, seedTimeoutMs, options.signal);
    options.log(`seed ${task.seed} ${result.status} (job ${job.id})`);
    return result;
  } catch (error) {
    if (error instanceof SweepAborted) return new Promise<never>(() => {}); // stopping: leave the job to its lock's expiry
    throw error;
  }
}

/** Waits, in bounded steps, for the user's stop, the idle limit, or Redis lost for MAX_FAILED_PINGS checks in a row. */
async function waitUntilStopped(options: WorkerServeOptions, running: () => number, probe: RedisProbe): Promise<void> {
  const tick = 250;
  let idleMs = 0;
  let sincePingMs = 0;
  try {
    while (!options.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, tick));
      idleMs = running() > 0 ? 0 : idleMs + tick;
      if (options.idleExitMs !== undefined && idleMs >= options.idleExitMs) return options.log(`no job for ${Math.round(idleMs / 1000)} s; exiting`);
      sincePingMs += tick;
      if (sincePingMs < PING_EVERY_MS) continue;
      sincePingMs = 0;
      if (!(await probe.check())) throw new QueueSetupError(`lost Redis at ${options.url} for ${MAX_FAILED_PINGS} health checks in a row; exiting`);
    }
  } finally {
    probe.close();
  }
}

/** A connection of its own that pings Redis; counts the failures in a row. */
class RedisProbe {
  readonly #redis: Redis;
  #failures = 0;

  constructor(url: string) {
    this.#redis = new Redis({ ...redisConnection(url), maxRetriesPerRequest: 1, lazyConnect: false });
    this.#redis.on('error', () => {}); // counted through check()
  }

  /** False once MAX_FAILED_PINGS checks in a row failed. */
  async check(): Promise<boolean> {
    const ok = await within(this.#redis.ping(), PING_EVERY_MS, 'ping timed out').then(() => true, () => false);
    this.#failures = ok ? 0 : this.#failures + 1;
    return this.#failures < MAX_FAILED_PINGS;
  }

  close(): void {
    this.#redis.disconnect();
  }
}

/**
 * Closes each, none waiting longer than CLOSE_TIMEOUT_MS, then force-disconnects what has a disconnect, so
 * no reconnect timer keeps the process alive.
 */
async function closeAll(closables: ReadonlyArray<{ close: () => Promise<void>; disconnect?: () => Promise<void> }>): Promise<void> {
  await Promise.all(closables.map((c) => within(c.close(), CLOSE_TIMEOUT_MS, 'close timed out').catch(() => undefined)));
  await Promise.all(closables.map((c) => within(c.disconnect?.() ?? Promise.resolve(), CLOSE_TIMEOUT_MS, 'disconnect timed out').catch(() => undefined)));
}

/** Keeps the last connection error of BullMQ objects (which must have an 'error' listener) to explain a failure. */
class ErrorLatch {
  #last: string | undefined;

  constructor(...emitters: Array<{ on(event: 'error', listener: (error: Error) => void): unknown }>) {
    for (const emitter of emitters) emitter.on('error', (error) => (this.#last = errorMessage(error)));
  }

  suffix(): string {
    return this.#last ? ` (${this.#last})` : '';
  }
}
