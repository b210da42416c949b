import { outDirProblem } from './outputs/write.js';
import { redisConnection } from './queue/redis-url.js';
import { positiveDuration, UsageError, workerThreads } from './run-options.js';
import { parseSeedSpec, parseShard, shardSeeds, type Shard } from './seeds.js';

/** What a sweep is asked, as `agent-chess-sim sweep` takes it (option names as its flags, for the refusals). */
export interface SweepOptions {
  scenario: string;
  seeds: string;
  workers?: number;
  out: string;
  shard?: string;
  queue?: string;
  queueName?: string;
  timeout: string;
  queueWait?: string;
}

/** The options checked, all but the scenario. */
export interface CheckedSweepOptions {
  /** Every seed of the sweep; `mine` are those this process runs (its shard's). */
  seeds: number[];
  mine: number[];
  shard: Shard | undefined;
  workers: number;
  seedTimeoutMs: number;
  queueWaitMs: number;
}

/** Extra wait, past the seed timeout, before a queue sweep gives up on seeds no worker finished. */
const QUEUE_WAIT_MARGIN_MS = 5 * 60_000;

/**
 * Checks every option but the scenario, in the order the refusals are tested; throws a one-line error. Its
 * modules are light: the sweep command starts its threads on this answer, before it loads the scenario's code.
 */
export function checkSweepOptions(options: SweepOptions): CheckedSweepOptions {
  const seeds = parseSeedSpec(options.seeds);
  const shard = options.shard === undefined ? undefined : parseShard(options.shard);
  const seedTimeoutMs = positiveDuration(options.timeout, '--timeout');
  const queueWaitMs =
    options.queueWait === undefined
      ? seedTimeoutMs + QUEUE_WAIT_MARGIN_MS
      : positiveDuration(options.queueWait, '--queue-wait');
  if (options.queue !== undefined) {
    redisConnection(options.queue);
    if (options.workers !== undefined)
      throw new UsageError(
        '--workers: with --queue the worker processes choose their threads (worker --concurrency N)',
      );
  }
  const workers = workerThreads(options.workers);
  const outProblem = outDirProblem(options.out);
  if (outProblem) throw new UsageError(outProblem);
  const mine = shard ? shardSeeds(seeds, shard) : seeds;
  return { seeds, mine, shard, workers, seedTimeoutMs, queueWaitMs };
}

/** The threads a local sweep of `seeds` seeds runs on: `workers`, or fewer when there are fewer seeds. */
export function localThreads(workers: number, seeds: number): number {
  return Math.max(1, Math.min(workers, seeds));
}
