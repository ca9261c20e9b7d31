/**
 * Counters shared by every instance, in fixed time windows: the seam for rate limits
 * (a later issue). With Redis the count is global; without it, per process.
 */
export interface CounterStore {
  /**
   * Adds one to `key` in the window that started with its first hit and lasts
   * `windowMs`; answers the count so far and when the window ends (epoch ms).
   * Throws AppError E_SERVICE_UNAVAILABLE when the shared store cannot be reached.
   */
  increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }>;
  close(): Promise<void>;
}

/** Per-process counters, for a single instance or when REDIS_URL is not set. */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweeps = 0;

  async increment(key: string, windowMs: number): Promise<{ count: number; resetAt: number }> {
    const now = Date.now();
    if (++this.sweeps % 10_000 === 0) this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { ...window };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  /** Drops ended windows now and then, so idle keys do not accumulate. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
