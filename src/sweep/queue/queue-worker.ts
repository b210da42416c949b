import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { SweepAborted } from '../aborted.js';
import { SeedPool } from '../pool/pool.js';
import { checkReachable, closeAll, CONNECT_TIMEOUT_MS, ErrorLatch, within, type SeedJob } from './queue.js';
import { QueueSetupError, redisConnection } from './redis-url.js';
import { errorMessage, type SeedResult } from '../seed-result.js';

/** The worker side of the queue (`worker`): seeds from Redis onto this machine's piscina threads. */

/** A worker that cannot reach Redis for this many health checks in a row (one each 5 s) exits. */
const MAX_FAILED_PINGS = 12;
const PING_EVERY_MS = 5_000;

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
    await within(
      worker.waitUntilReady(),
      CONNECT_TIMEOUT_MS,
      `cannot reach Redis at ${options.url}${errors.suffix()}`,
    );
    void worker.run().catch((error: unknown) => options.log(`worker stopped: ${errorMessage(error)}`));
    options.log(
      `worker ready: queue ${options.queueName} at ${options.url}, ${options.concurrency} thread(s), agent-chess-sim ${options.version}`,
    );
    await waitUntilStopped(options, () => running, new RedisProbe(options.url));
    return finished;
  } finally {
    await closeAll([{ close: () => worker.close(true), disconnect: () => worker.disconnect() }]);
    await pool.destroy();
  }
}

async function runJob(
  job: Job<SeedJob, SeedResult>,
  pool: SeedPool,
  options: WorkerServeOptions,
): Promise<SeedResult> {
  const { sweep, version, task, seedTimeoutMs } = job.data;
  if (version !== options.version)
    throw new UnrecoverableError(`worker runs agent-chess-sim ${options.version}, the sweep ${version}`);
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
async function waitUntilStopped(
  options: WorkerServeOptions,
  running: () => number,
  probe: RedisProbe,
): Promise<void> {
  const tick = 250;
  let idleMs = 0;
  let sincePingMs = 0;
  try {
    while (!options.signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, tick));
      idleMs = running() > 0 ? 0 : idleMs + tick;
      if (options.idleExitMs !== undefined && idleMs >= options.idleExitMs)
        return options.log(`no job for ${Math.round(idleMs / 1000)} s; exiting`);
      sincePingMs += tick;
      if (sincePingMs < PING_EVERY_MS) continue;
      sincePingMs = 0;
      if (!(await probe.check()))
        throw new QueueSetupError(
          `lost Redis at ${options.url} for ${MAX_FAILED_PINGS} health checks in a row; exiting`,
        );
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
    const ok = await within(this.#redis.ping(), PING_EVERY_MS, 'ping timed out').then(
      () => true,
      () => false,
    );
    this.#failures = ok ? 0 : this.#failures + 1;
    return this.#failures < MAX_FAILED_PINGS;
  }

  close(): void {
    this.#redis.disconnect();
  }
}
