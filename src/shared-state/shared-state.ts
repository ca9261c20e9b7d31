import type { Config } from '../config.js';
import { LocalChangeBus, type ChangeBus } from './change-bus.js';
import { MemoryCounterStore, type CounterStore } from './counter-store.js';
import type { Log } from './log.js';
import { RedisChangeBus } from './redis-change-bus.js';
import { RedisCounterStore } from './redis-counter-store.js';

/**
 * What instances share: Redis when REDIS_URL is set, in-process equivalents otherwise.
 * Nothing here is the source of truth (PostgreSQL is), so losing Redis costs freshness
 * and shared counts, never data.
 */
export interface SharedState {
  readonly changes: ChangeBus;
  readonly counters: CounterStore;
  close(): Promise<void>;
}

export function openSharedState(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, log: Log): SharedState {
  const changes = config.redisUrl ? new RedisChangeBus(config.redisUrl, config.redisPrefix, log) : new LocalChangeBus();
  const counters = config.redisUrl ? new RedisCounterStore(config.redisUrl, config.redisPrefix, log) : new MemoryCounterStore();
  return {
    changes,
    counters,
    close: async () => {
      await Promise.all([changes.close(), counters.close()]);
    },
  };
}
