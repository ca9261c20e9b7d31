import type { Config } from '../config.js';
import type { Log } from '../log.js';
import { type ChangeBus, LocalChangeBus } from './change-bus.js';
import { RedisChangeBus } from './redis-change-bus.js';

/**
 * What instances share: Redis when REDIS_URL is set, in-process equivalents otherwise.
 * Nothing here is the source of truth (PostgreSQL is), so losing Redis costs freshness,
 * never data.
 */
export interface SharedState {
  readonly changes: ChangeBus;
  close(): Promise<void>;
}

export function openSharedState(config: Pick<Config, 'redisUrl' | 'redisPrefix'>, log: Log): SharedState {
  const changes = config.redisUrl ? new RedisChangeBus(config.redisUrl, config.redisPrefix, log) : new LocalChangeBus();
  return { changes, close: () => changes.close() };
}
