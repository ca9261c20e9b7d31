import type { Redis } from 'ioredis';
import { AppError } from '../http/app-error.js';
import type { CounterStore } from './counter-store.js';
import type { Log } from './log.js';
import { closeRedis, connectRedis } from './redis-connection.js';

/** Counters in Redis under `<REDIS_PREFIX>counter:<key>`, shared by every instance. */
export class RedisCounterStore implements CounterStore {
  private redis: Redis | undefined;
  private connected: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly url: string,
    private readonly prefix: string,
    private readonly log: Log,
  ) {}

  async increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }> {
    const redis = await this.connection();
    const name = `${this.prefix}counter:${key}`;
    try {
      // SET NX starts the window with its expiry; INCR and PTTL then read it, in one round trip.
      const replies = await redis
        .multi().set(name, 0, 'PX', windowMs, 'NX').incr(name).pttl(name).exec();
      const count = Number(replies?.[1]?.[1]);
      const ttl = Number(replies?.[2]?.[1]);
      if (!Number.isFinite(count)) throw new Error('unexpected reply from redis');
      return { count, resetAt: Date.now() + (ttl > 0 ? ttl : windowMs) };
    } catch (error) {
      this.log.warn({ err: error }, 'redis counter unavailable');
      throw AppError.unavailable();
    }
  }

  /**
   * Connected on first use, so instances that never count hold no extra connection; the
   * first call waits for that connection (up to its connect timeout). No offline queue:
   * later, while Redis is down, a request fails at once (503) instead of waiting.
   */
  private async connection(): Promise<Redis> {
    if (!this.redis) {
      this.redis = connectRedis(this.url, 'counters', this.log, { enableOfflineQueue: false, lazyConnect: true });
      // A failure is logged by the connection's 'error' handler; ioredis keeps retrying.
      this.connected = this.redis.connect().catch(() => undefined);
    }
    await this.connected;
    return this.redis;
  }

  async close(): Promise<void> {
    if (this.redis) await closeRedis(this.redis);
  }
}
