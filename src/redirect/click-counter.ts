import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../storage/database.js';
import type { ClickChunk } from '../storage/sqlite-background.js';

// Ids per UPDATE (and per write): within every engine's limit on bound parameters, and
// short enough that a redirect waiting behind one is not delayed by more than ~1 ms.
const CHUNK = 200;

/**
 * Counts clicks in memory and adds them to the link_clicks table in batches, off the
 * request path. Increments are additive (clicks = clicks + n), so any number of instances can
 * flush into one database and the totals stay exact. A failed flush keeps its counts
 * for the next one.
 */
export class ClickCounter {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private inFlight = false;

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  count(linkId: number): void {
    this.pending.set(linkId, (this.pending.get(linkId) ?? 0) + 1);
  }

  start(intervalMs: number): void {
    // While the database is slow or down, ticks are skipped rather than queued behind a hung flush.
    this.timer = setInterval(() => {
      if (!this.inFlight) void this.flush();
    }, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and writes what is left. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  flush(): Promise<void> {
    this.inFlight = true;
    this.flushing = this.flushing.then(() => this.writePending()).finally(() => (this.inFlight = false));
    return this.flushing;
  }

  private async writePending(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    // A few hundred links per write (one statement), not one statement per link: per-row
    // statements were the largest cost of a cache-missing redirect load. Each chunk is its
    // own write, so redirects are served between chunks instead of waiting behind one
    // long transaction (it set the p99 of cache-missing redirects).
    const counts = [...batch].sort((a, b) => a[0] - b[0]); // neighbouring ids share pages
    const chunks: ClickChunk[] = [];
    for (let i = 0; i < counts.length; i += CHUNK) chunks.push(counts.slice(i, i + CHUNK));
    for (let c = 0; c < chunks.length; c++) {
      try {
        await this.database.addClicks(chunks[c]!);
      } catch (error) {
        for (const rest of chunks.slice(c)) for (const [id, clicks] of rest) this.pending.set(id, (this.pending.get(id) ?? 0) + clicks);
        this.log.warn({ err: error, links: batch.size }, 'click flush failed; will retry');
        return;
      }
    }
  }
}
