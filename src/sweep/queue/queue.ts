import { Redis } from 'ioredis';
import { QueueSetupError, redisConnection } from './redis-url.js';
import { errorMessage, type SeedTask } from '../seed-result.js';

/**
 * Seeds on a BullMQ queue in Redis: the producer (`sweep --queue`) adds one job per seed and collects the
 * results; any number of `worker` processes, on any machines, run them on their own piscina pools. A job
 * whose worker dies loses its lock and BullMQ's stalled-job check, run by the other workers, puts it back
 * in the queue for another worker; after `maxStalled` such recoveries it fails and the seed is reported
 * lost. The result of a seed is the same record a local sweep makes (the same runSeed), so the producer
 * writes the same sweep.json. Every wait has a bound. This module holds what both sides share; the sides
 * are queue-producer.ts and queue-worker.ts.
 */

/** What one job carries: the seed's task, and what the worker must agree with. */
export interface SeedJob {
  sweep: string;
  version: string;
  seedTimeoutMs: number;
  task: SeedTask;
}

/** Bounds on connecting to Redis and on closing a connection. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const CLOSE_TIMEOUT_MS = 5_000;

/**
 * One connection attempt, no retries: an unreachable Redis is a one-line error at once, before BullMQ's
 * connections (which retry with backoff) exist.
 */
export async function checkReachable(url: string): Promise<void> {
  const probe = new Redis({
    ...redisConnection(url),
    lazyConnect: true,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
  let cause: string | undefined; // the socket's error (ECONNREFUSED...); connect() rejects only with "Connection is closed"
  probe.on('error', (error: Error) => (cause ??= errorMessage(error)));
  try {
    await within(
      probe.connect().then(() => probe.ping()),
      CONNECT_TIMEOUT_MS,
      'no answer',
    );
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

/**
 * Closes each, none waiting longer than CLOSE_TIMEOUT_MS, then force-disconnects what has a disconnect, so
 * no reconnect timer keeps the process alive.
 */
export async function closeAll(
  closables: ReadonlyArray<{ close: () => Promise<void>; disconnect?: () => Promise<void> }>,
): Promise<void> {
  await Promise.all(
    closables.map((c) => within(c.close(), CLOSE_TIMEOUT_MS, 'close timed out').catch(() => undefined)),
  );
  await Promise.all(
    closables.map((c) =>
      within(c.disconnect?.() ?? Promise.resolve(), CLOSE_TIMEOUT_MS, 'disconnect timed out').catch(
        () => undefined,
      ),
    ),
  );
}

/** Keeps the last connection error of BullMQ objects (which must have an 'error' listener) to explain a failure. */
export class ErrorLatch {
  #last: string | undefined;

  constructor(...emitters: Array<{ on(event: 'error', listener: (error: Error) => void): unknown }>) {
    for (const emitter of emitters) emitter.on('error', (error) => (this.#last = errorMessage(error)));
  }

  suffix(): string {
    return this.#last ? ` (${this.#last})` : '';
  }
}
