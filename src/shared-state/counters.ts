import { LRUCache } from 'lru-cache';

/** A counter's state after an addition: its total in the current window, and the time left in that window. */
export interface CounterState {
  readonly current: number;
  readonly ttlMs: number;
}

/**
 * Fixed-window counters for rate limits (http/rate-limits.ts). In one process, or shared
 * by every instance through Redis (redis-counters.ts). `add` never fails: a counter that
 * cannot be shared is counted here instead.
 */
export interface RateCounters {
  /** Adds `amount` to `key`'s counter; a new window of `windowMs` starts when none is running. */
  add(key: string, amount: number, windowMs: number): Promise<CounterState>;
  /** Resolves once the counters are shared (or were given up waiting for); at once for local ones. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

// Counters of callers not seen for a window fall out first; a flood of addresses costs
// at most this many entries (in each set of counters: see shared-state.ts).
export const MAX_LOCAL_COUNTERS = 100_000;

interface Window {
  count: number;
  endsAt: number;
}

/** Counters in this process: per instance, at most `max` of them (the least recently counted go first). */
export class LocalCounters implements RateCounters {
  private readonly windows: LRUCache<string, Window>;

  constructor(max = MAX_LOCAL_COUNTERS) {
    // Bounded by count (each counter weighs 1) rather than by `max`, which lru-cache allocates whole up front:
    // ~50–250 ms of CPU for 100,000 entries, in each of the several sets an app makes.
    this.windows = new LRUCache<string, Window>({ maxSize: max, sizeCalculation: () => 1 });
  }

  async add(key: string, amount: number, windowMs: number): Promise<CounterState> {
    return this.addNow(key, amount, windowMs);
  }

  /** The same, synchronously (the Redis counters' fall-back calls it). */
  addNow(key: string, amount: number, windowMs: number): CounterState {
    const now = Date.now();
    let window = this.windows.get(key);
    if (window === undefined || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += amount;
    return { current: window.count, ttlMs: window.endsAt - now };
  }

  async ready(): Promise<void> {}
  async close(): Promise<void> {}
}
