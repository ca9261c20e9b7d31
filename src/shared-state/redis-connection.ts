import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';
import type { Log } from '../log.js';

/** ioredis, loaded on the first connection: a server without REDIS_URL never loads its ~40 modules. */
let ioredis: typeof import('ioredis') | undefined;
const loadIoredis = () => {
  ioredis ??= createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  return ioredis;
};

/**
 * Opens an ioredis connection that can never take the process down: 'error' is always
 * handled (logged once per outage), and ioredis keeps reconnecting with a capped backoff.
 * `role` names the connection in logs (publisher, subscriber, counters).
 */
export function connectRedis(url: string, role: string, log: Log, options: RedisOptions = {}): Redis {
  const redis = new (loadIoredis().Redis)(url, {
    // Commands waiting on a dead connection fail after one reconnect attempt instead of
    // piling up; callers treat Redis as best-effort or answer 503.
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
    ...options,
  });
  let down = false;
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    log.warn({ err, role }, `redis ${role} connection failed; reconnecting`);
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({ role }, `redis ${role} connection restored`);
  });
  return redis;
}

/** Closes a connection politely if it is up, at once otherwise, within `timeoutMs`. */
export async function closeRedis(redis: Redis, timeoutMs = 1_000): Promise<void> {
  if (redis.status === 'ready') {
    await Promise.race([redis.quit().catch(() => undefined), delay(timeoutMs)]);
  }
  redis.disconnect();
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
