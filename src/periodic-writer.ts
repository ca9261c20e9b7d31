import type { Log } from './log.js';

/**
 * What gathers work in memory and writes it in batches, off the request path: every
 * interval, and once more on stop. One flush at a time: while the database is slow or
 * down, ticks are skipped rather than queued behind a hung flush, and a flush asked for
 * meanwhile runs after the one under way. The click counter and the click event recorder
 * are the two; each says what a flush writes (writePending).
 */
export abstract class PeriodicWriter {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = false;

  protected constructor(
    protected readonly log: Log,
    /** Names the writer in the log line of a flush that threw. */
    private readonly what: string,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (!this.inFlight) void this.flush();
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is held. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  flush(): Promise<void> {
    this.inFlight = true;
    this.flushing = this.flushing
      .then(() => this.writePending())
      .catch((error: unknown) => this.log.warn({ err: error }, `${this.what} flush failed`))
      .finally(() => {
        this.inFlight = false;
        this.afterFlush();
      });
    return this.flushing;
  }

  /** Writes what is held; what it cannot write it keeps for the next flush. */
  protected abstract writePending(): Promise<void>;

  /** After each flush, written or not. */
  protected afterFlush(): void {}
}
