import type { Config } from '../config.js';
import type { Log } from '../log.js';
import { type ChangeBus, LocalChangeBus } from './change-bus.js';
import { LocalCounters, type RateCounters } from './counters.js';
import { RedisChangeBus } from './redis-change-bus.js';
import { RedisCounters } from './redis-counters.js';

/**
 * What instances share: Redis when REDIS_URL is set, in-process equivalents otherwise.
 * Nothing here is the source of truth (PostgreSQL is), so losing Redis costs freshness,
 * never data.
 */
export interface SharedState {
  readonly changes: ChangeBus;
  /** Rate-limit counters; opened on first use (the CLI never uses them). */
  readonly counters: RateCounters;
  close(): Promise<void>;
}

export function openSharedState(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, log: Log): SharedState {
  const { redisUrl, redisPrefix } = config;
  const changes = redisUrl ? new RedisChangeBus(redisUrl, redisPrefix, log) : new LocalChangeBus();
  let counters: RateCounters | undefined;
  return {
    changes,
    get counters() {
      counters ??= redisUrl ? new RedisCounters(redisUrl, redisPrefix, log) : new LocalCounters();
      return counters;
    },
    async close() {
      await Promise.all([changes.close(), counters?.close()]);
    },
  };
}
