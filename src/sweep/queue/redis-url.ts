import type { ConnectionOptions } from 'bullmq';
import type { RedisOptions } from 'ioredis';

/**
 * The queue's Redis address: `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS, as ioredis
 * (and so BullMQ) connection options. Apart from the queue itself, and with type-only imports, so that
 * checking `--queue` does not load BullMQ: the CLI loads it only when a queue is used.
 */
export class QueueSetupError extends Error {
  override readonly name = 'QueueSetupError';
}

/** Reconnect attempts before a connection gives up (about a minute of backoff in all). */
const MAX_RECONNECTS = 15;

export function redisConnection(url: string): ConnectionOptions & RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueSetupError(`--queue: "${url}" is not a URL; write redis://HOST:PORT`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new QueueSetupError(`--queue: "${url}" is not a redis:// or rediss:// URL`);
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d+$/.test(db))
    throw new QueueSetupError(
      `--queue: "${url}": the path must be a database number, e.g. redis://HOST:6379/0`,
    );
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db !== '' ? { db: Number(db) } : {}),
    ...(parsed.protocol === 'rediss:' ? { tls: {} } : {}),
    retryStrategy: (times: number) => (times > MAX_RECONNECTS ? null : Math.min(times * 500, 5_000)),
  };
}
