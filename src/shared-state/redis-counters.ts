import type { Redis } from 'ioredis';
import type { Log } from '../log.js';
import { type CounterState, LocalCounters, type RateCounters } from './counters.js';
import { closeRedis, connectRedis, delay } from './redis-connection.js';

// A rate limit must not slow a request down: a Redis that does not answer in this long is
// treated as down for that request, which is then counted here.
const COMMAND_TIMEOUT_MS = 250;
// Start-up waits this long for the connection, so the first requests are counted in Redis.
const READY_WAIT_MS = 2_000;

// INCRBY, and a new window when the counter is new (or lost its expiry); returns {total, ms left}.
const ADD_SCRIPT = `
local current = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == tonumber(ARGV[1]) or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {current, ttl}
`;

type CountingRedis = Redis & {
  rateCount(key: string, amount: number, windowMs: number): Promise<[number, number]>;
};

/**
 * Rate-limit counters every instance shares, in Redis under `<REDIS_PREFIX>rate:`. While
 * Redis cannot be reached they are counted in this process instead (per instance), and
 * the switch is logged both ways; a request is never refused or slowed because of Redis.
 */
export class RedisCounters implements RateCounters {
  private readonly redis: CountingRedis;
  private readonly prefix: string;
  private shared = true;

  constructor(
    url: string,
    prefix: string,
    private readonly log: Log,
    /** Where counters go while Redis cannot be reached. */
    private readonly local = new LocalCounters(),
  ) {
    this.prefix = `${prefix}rate:`;
    // No offline queue: while disconnected a command fails at once, and is counted here.
    const redis = connectRedis(url, 'counters', log, { enableOfflineQueue: false, commandTimeout: COMMAND_TIMEOUT_MS });
    redis.defineCommand('rateCount', { numberOfKeys: 1, lua: ADD_SCRIPT });
    this.redis = redis as CountingRedis;
  }

  add(key: string, amount: number, windowMs: number): Promise<CounterState> {
    return this.addTo(this.local, key, amount, windowMs);
  }

  /**
   * The same counters in Redis (on the same connection), with a fall-back of their own while Redis
   * cannot be reached: one that keys counted here cannot evict.
   */
  withFallback(local: LocalCounters): RateCounters {
    return { add: (key, amount, windowMs) => this.addTo(local, key, amount, windowMs), ready: () => this.ready(), close: async () => {} };
  }

  private async addTo(local: LocalCounters, key: string, amount: number, windowMs: number): Promise<CounterState> {
    if (this.redis.status === 'ready') {
      try {
        const [current, ttlMs] = await this.redis.rateCount(this.prefix + key, amount, windowMs);
        if (!this.shared) {
          this.shared = true;
          this.log.info({}, 'rate limits are shared through redis again');
        }
        return { current, ttlMs };
      } catch (err) {
        this.fallBack(err);
      }
    } else {
      this.fallBack(undefined);
    }
    return local.addNow(key, amount, windowMs);
  }

  async ready(): Promise<void> {
    if (this.redis.status === 'ready') return;
    const connected = new Promise<void>((resolve) => this.redis.once('ready', () => resolve()));
    await Promise.race([connected, delay(READY_WAIT_MS)]);
  }

  close(): Promise<void> {
    return closeRedis(this.redis);
  }

  private fallBack(err: unknown): void {
    if (!this.shared) return;
    this.shared = false;
    this.log.warn({ err }, 'redis unreachable: rate limits are counted per instance until it is back');
  }
}
