import { randomUUID } from 'node:crypto';
import type { Log } from '../log.js';
import { PeriodicWriter } from '../periodic-writer.js';
import type { ClickBatch, ClickStore } from '../storage/stores/clicks.js';
import { ClickTally } from './structures/click-tally.js';

// Ids per UPDATE (and per write): within every engine's limit on bound parameters, and
// short enough that a redirect waiting behind one is not delayed by more than ~1 ms.
const CHUNK = 200;

/**
 * Counts clicks in memory and adds them to the link_clicks table in batches, off the
 * request path. Increments are additive (clicks = clicks + n), so any number of instances can
 * flush into one database and the totals stay exact. A failed flush keeps its counts
 * for the next one. A batch whose outcome is unclear (the connection dropped, perhaps
 * after the commit) is retried as it was, under its number, before anything else: the
 * database applies a writer's number at most once, so no click is counted twice.
 */
export class ClickCounter extends PeriodicWriter {
  private pending = new ClickTally();
  private readonly writer = randomUUID();
  private seq = 0;
  private unconfirmed: ClickBatch | undefined;
  /** Writes that failed (the database unreachable, say) and will be tried again (GET /metrics). */
  failedWrites = 0;

  constructor(
    private readonly store: ClickStore,
    log: Log,
  ) {
    super(log, 'click');
  }

  count(linkId: number): void {
    this.pending.add(linkId);
  }

  protected async writePending(): Promise<void> {
    if (this.unconfirmed) {
      if (!(await this.tryWrite(this.unconfirmed))) return;
      this.unconfirmed = undefined;
    }
    if (this.pending.size === 0) return;
    const { ids, counts } = this.pending.drain();
    // A few hundred links per write (one statement), not one statement per link: per-row
    // statements were the largest cost of a cache-missing redirect load. Each chunk is its
    // own write, so redirects are served between chunks instead of waiting behind one
    // long transaction (it set the p99 of cache-missing redirects).
    for (let i = 0; i < ids.length; i += CHUNK) {
      const end = Math.min(i + CHUNK, ids.length);
      const clicks: Array<[number, number]> = [];
      for (let k = i; k < end; k++) clicks.push([ids[k]!, counts[k]!]);
      const batch: ClickBatch = { writer: this.writer, seq: ++this.seq, clicks };
      if (!(await this.tryWrite(batch))) {
        this.unconfirmed = batch;
        // Never sent: back with the counts still to come.
        for (let k = end; k < ids.length; k++) this.pending.add(ids[k]!, counts[k]!);
        return;
      }
    }
  }

  private async tryWrite(batch: ClickBatch): Promise<boolean> {
    try {
      await this.store.add(batch);
      return true;
    } catch (error) {
      this.failedWrites++;
      this.log.warn({ err: error, links: batch.clicks.length }, 'click flush failed; will retry');
      return false;
    }
  }
}
