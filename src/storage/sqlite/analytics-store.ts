import { sql } from 'kysely';
import { SqlAnalyticsStore } from '../sql/analytics-store.js';
import { applyEventBatch } from '../sql/click-writes.js';
import type { ClickCountQuery, ClickEventBatch, TopColumn, TopCount } from '../stores/analytics.js';
import type { SqliteConnection } from './connection.js';
import { LATE_DIMENSION, LINK_ROLLUP_EVENTS, rollUpLinkEvents } from './link-rollups.js';

/**
 * Click events on SQLite: written on the background thread when there is one, and the `link_id` rows
 * of the workspace rollups caught up from the stored events afterwards (link-rollups.ts), before any
 * query of them and before events expire.
 */
export class SqliteAnalyticsStore extends SqlAnalyticsStore<SqliteConnection> {
  protected readonly valueOrder = sql`value`;

  add(batch: ClickEventBatch): Promise<void> {
    const { background } = this.connection;
    // Off the event loop when there is a background thread (SQLite files): under cache-missing
    // redirect load every event touches random index pages, as click increments do.
    if (background?.running) return background.addEvents(batch);
    return this.connection.write((trx) => applyEventBatch(trx, batch, { links: false }));
  }

  override async topCounts(query: ClickCountQuery, column: TopColumn, limit?: number): Promise<TopCount[]> {
    if (column === LATE_DIMENSION && query.linkId === undefined && query.tags === undefined) await this.rollUpLinks();
    return super.topCounts(query, column, limit);
  }

  override async expire(cutoff: number): Promise<void> {
    await this.rollUpLinks(); // before the events go
    return super.expire(cutoff);
  }

  /**
   * Counts the events the link_id rows lack yet, on the background thread when there is one, else
   * (or should the thread fail) on the server's connection: the mark makes it the same.
   */
  private async rollUpLinks(): Promise<void> {
    const { background } = this.connection;
    if (background?.running) {
      try {
        return await background.rollUpLinks();
      } catch {
        // The thread exited, or its catch-up failed: once more here.
      }
    }
    while (await this.connection.write((trx) => rollUpLinkEvents(trx, LINK_ROLLUP_EVENTS)));
  }
}
