import type { Log } from '../log.js';
import { PeriodicWriter } from '../periodic-writer.js';
import type { AnalyticsStore } from '../storage/stores/analytics.js';
import { DAY, floorTo } from './time-series.js';
/** How often the cut-off is looked at: it moves once a day, at 00:00 UTC. */
export const RETENTION_CHECK_MS = 3_600_000;

/**
 * ANALYTICS_RETENTION_DAYS: once a day (checked hourly, and at start) the events older than the
 * retention become their links' day figures and are deleted, with the workspaces' quarter-hour
 * figures of the same days (AnalyticsStore.expire). Day figures stay, so totals outlive events.
 */
export class AnalyticsRetention extends PeriodicWriter {
  /** The cut-off applied last by this process. */
  private applied = 0;

  constructor(
    private readonly store: AnalyticsStore,
    private readonly days: number,
    log: Log,
    private readonly now: () => number = Date.now,
  ) {
    super(log, 'analytics retention');
  }

  /** The start of the oldest UTC day kept. */
  cutoff(): number {
    return floorTo(this.now() - this.days * DAY, DAY);
  }

  protected async writePending(): Promise<void> {
    const cutoff = this.cutoff();
    if (cutoff <= this.applied) return;
    await this.store.expire(cutoff);
    this.applied = cutoff;
  }
}
