import type { IncomingMessage } from 'node:http';
import type { Log } from '../log.js';
import { PeriodicWriter } from '../periodic-writer.js';
import type { LinkTarget, VisitLimit } from '../storage/stores/links.js';
import type { VisitLimitStore } from '../storage/stores/visit-limits.js';
import { botName } from '../visitors/bots.js';

/** What an instance knows of one limited link's visits: the database's total at its last flush, and its own since. */
export class LimitedVisits {
  constructor(
    /** The total in the database as last read (every instance's flushed visits). */
    public counted: number,
    /** This instance's visits not written yet. */
    public pending = 0,
  ) {}

  /** The visits this instance knows of: never more than have happened, so a link is never closed early. */
  get total(): number {
    return this.counted + this.pending;
  }
}

/**
 * Counts the visits of links with a visit limit (decision 0039): in memory on the request path, added to the link's
 * total in the database every CLICK_FLUSH_MS (additive, like clicks, so instances add up), and the totals read
 * back, so each instance learns the others' visits at its flush. A link closes once the total this instance knows
 * of reaches its limit; the most it can be over is what the other instances let through in one flush interval, while
 * they had not written it yet. Bots are not counted.
 */
export class VisitLimits extends PeriodicWriter {
  private readonly links = new Map<number, LimitedVisits>();
  /** Writes that failed and will be tried again (their visits stay pending). */
  failedWrites = 0;

  constructor(
    private readonly store: VisitLimitStore,
    log: Log,
  ) {
    super(log, 'visit limit');
  }

  /** A limited link's visits as this instance knows them; `limit` as read with the target, possibly fresher. */
  of(id: number, limit: VisitLimit): LimitedVisits {
    const known = this.links.get(id);
    if (known === undefined) {
      const made = new LimitedVisits(limit.counted);
      this.links.set(id, made);
      return made;
    }
    if (limit.counted > known.counted) known.counted = limit.counted;
    return known;
  }

  /** A visit observer: a visit of a limited link by anyone but a bot counts. */
  readonly observe = (target: LinkTarget, request: IncomingMessage): void => {
    if (target.visitLimit === undefined) return;
    if (botName(request.headers['user-agent'] ?? '') !== null) return;
    this.of(target.id, target.visitLimit).pending++;
  };

  protected async writePending(): Promise<void> {
    if (this.links.size === 0) return;
    const visits: Array<[number, number]> = [];
    for (const [id, known] of this.links) if (known.pending > 0) visits.push([id, known.pending]);
    let totals: Map<number, number>;
    try {
      totals = await this.store.add(visits, [...this.links.keys()]);
    } catch (error) {
      this.failedWrites++;
      this.log.warn({ err: error, links: visits.length }, 'visit limit flush failed; will retry');
      return;
    }
    // Visits made while the write was under way stay pending; those written are in the totals read back.
    for (const [id, written] of visits) this.links.get(id)!.pending -= written;
    for (const [id, known] of this.links) {
      const total = totals.get(id);
      if (total === undefined) this.links.delete(id);
      else known.counted = total;
    }
  }
}
