import type { Config } from '../config.js';
import type { Log } from '../log.js';
import { type ChangeBus, LocalChangeBus } from './change-bus.js';
import { LocalCounters, MAX_LOCAL_COUNTERS, type RateCounters } from './counters.js';
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
  /**
   * The counters that guard passwords, apart from the others: no flood of other keys (addresses,
   * tokens) can push them out of this process's memory. In Redis beside the others when shared.
   */
  readonly passwordCounters: RateCounters;
  close(): Promise<void>;
}

/** `maxLocalCounters`: how many counters each set keeps in this process (tests make it small). */
export function openSharedState(
  config: Pick<Config, 'redisUrl' | 'redisPrefix'>,
  log: Log,
  options: { maxLocalCounters?: number } = {},
): SharedState {
  const { redisUrl, redisPrefix } = config;
  const { maxLocalCounters = MAX_LOCAL_COUNTERS } = options;
  const changes = redisUrl ? new RedisChangeBus(redisUrl, redisPrefix, log) : new LocalChangeBus();
  let counters: RedisCounters | LocalCounters | undefined;
  let passwordCounters: RateCounters | undefined;
  const openCounters = () => {
    counters ??= redisUrl ? new RedisCounters(redisUrl, redisPrefix, log, new LocalCounters(maxLocalCounters)) : new LocalCounters(maxLocalCounters);
    return counters;
  };
  return {
    changes,
    get counters() {
      return openCounters();
    },
    get passwordCounters() {
      const shared = openCounters();
      passwordCounters ??=
        shared instanceof RedisCounters ? shared.withFallback(new LocalCounters(maxLocalCounters)) : new LocalCounters(maxLocalCounters);
      return passwordCounters;
    },
    async close() {
      await Promise.all([changes.close(), counters?.close()]);
    },
  };
}
