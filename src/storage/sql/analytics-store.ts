import { type RawBuilder, sql } from 'kysely';
import { applyEventBatch } from './click-writes.js';
import type { Connection } from './connection.js';
import {
  ALL_DIMENSIONS,
  DAY_MS,
  eventValue,
  LATE_DIMENSION,
  LINK_ROLLUP_EVENTS,
  QUARTER_MS,
  type RollupDimension,
  type RollupPeriod,
  rollUpEvents,
  rollUpLinkEvents,
} from './rollups.js';
import type { AnalyticsStore, ClickCountQuery, ClickEventBatch, ClickSlot, TopColumn, TopCount } from './stores/analytics.js';

/** The first key of the advisory lock that serializes the expiry of one account's events (PostgreSQL). */
const EXPIRY_LOCK = 0x0b51ef;

const floorDay = (t: number) => t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
const ceilDay = (t: number) => floorDay(t + DAY_MS - 1);

/**
 * Click events and their rollups (storage/rollups.ts). A workspace's figures come from its
 * rollups (quarter hours at the edges of a range, whole days inside it), so they cost the same
 * however many events there are; one link's figures come from its events and, before the
 * retention cut-off, its day rows.
 */
export class SqlAnalyticsStore implements AnalyticsStore {
  constructor(private readonly connection: Connection) {}

  add(batch: ClickEventBatch): Promise<void> {
    const { background } = this.connection;
    // Off the event loop when there is a background thread (SQLite files): under cache-missing
    // redirect load every event touches random index pages, as click increments do.
    if (background?.running) return background.addEvents(batch);
    return this.connection.write((trx) => applyEventBatch(trx, batch, { links: !this.linksLate }));
  }

  /** SQLite: the link_id rows are rolled up from the stored events afterwards (rollUpLinkEvents). */
  private get linksLate(): boolean {
    return this.connection.dialect === 'sqlite';
  }

  /**
   * SQLite: counts the events the link_id rows lack yet, on the background thread when there is
   * one, else (or should the thread fail) on the server's connection: the mark makes it the same.
   */
  private async rollUpLinks(): Promise<void> {
    if (!this.linksLate) return;
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

  async humanClicksBySlot(query: ClickCountQuery): Promise<ClickSlot[]> {
    const parts = this.parts(query, 'clicks', true);
    const rows = await sql<{ start: number; clicks: number }>`
      select start, sum(clicks) as clicks from (${sql.join(parts, sql` union all `)}) as parts group by start`.execute(this.connection.db);
    return rows.rows.map((row) => ({ start: Number(row.start), clicks: Number(row.clicks) }));
  }

  async topCounts(query: ClickCountQuery, column: TopColumn, limit?: number): Promise<TopCount[]> {
    if (column === LATE_DIMENSION && query.linkId === undefined) await this.rollUpLinks();
    return this.counts(query, column, limit);
  }

  async topBrowserVersions(query: ClickCountQuery, browsers: readonly string[]): Promise<Map<string, string>> {
    const wanted = new Set(browsers);
    const versions = new Map<string, string>();
    if (wanted.size === 0) return versions;
    // Most clicked first, then by version text: the first row of each browser is its version.
    for (const { value } of await this.counts(query, 'browser_version')) {
      const space = value.lastIndexOf(' ');
      const browser = value.slice(0, space);
      if (space > 0 && wanted.has(browser) && !versions.has(browser)) versions.set(browser, value.slice(space + 1));
    }
    return versions;
  }

  async expire(cutoff: number): Promise<void> {
    await this.rollUpLinks(); // before the events go
    const accounts = await this.connection.db.selectFrom('accounts').select('id').execute();
    // One short transaction per account: on SQLite, every other write waits for the one running.
    for (const { id } of accounts) {
      await this.connection.write(async (trx) => {
        // Two instances expiring one account at once would both roll up the same events before either
        // deletes them (read committed): the second waits here, then finds them gone.
        if (this.connection.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${EXPIRY_LOCK}, ${id})`.execute(trx);
        await rollUpEvents(trx, { accountId: id, to: cutoff, perLink: true });
        await trx.deleteFrom('click_events').where('account_id', '=', id).where('time', '<', cutoff).execute();
        await trx
          .deleteFrom('click_rollups')
          .where('account_id', '=', id)
          .where('link_id', '=', 0)
          .where('period', '=', 'quarter')
          .where('dimension', 'in', [...ALL_DIMENSIONS])
          .where('start', '<', cutoff)
          .execute();
      });
    }
  }

  /** Clicks per value of a dimension in the range, most first, then by value (code point order). */
  private async counts(query: ClickCountQuery, dimension: RollupDimension, limit?: number): Promise<TopCount[]> {
    const parts = this.parts(query, dimension, false);
    const order = this.connection.dialect === 'postgres' ? sql`value collate "C"` : sql`value`;
    const rows = await sql<{ value: string; clicks: number }>`
      select value, sum(clicks) as clicks from (${sql.join(parts, sql` union all `)}) as parts
      group by value order by sum(clicks) desc, ${order}${limit === undefined ? sql`` : sql` limit ${limit}`}`.execute(this.connection.db);
    return rows.rows.map((row) => ({ value: String(row.value), clicks: Number(row.clicks) }));
  }

  /**
   * The pieces that together count the range once (columns start, value, clicks). A workspace:
   * before `detailFrom` its day rows; from there, quarter-hour rows, or (`fine` false) day rows
   * for the whole UTC days inside the range and quarter-hour rows at its two edges. One link: its
   * events in the range, and its day rows (made from the events that expired, so never both).
   */
  private parts(query: ClickCountQuery, dimension: RollupDimension, fine: boolean): RawBuilder<unknown>[] {
    const { from, to, detailFrom } = query;
    if (query.linkId !== undefined) {
      return [this.eventPart(query, query.linkId, dimension), this.rollupPart(query.accountId, query.linkId, 'day', dimension, floorDay(from), to)];
    }
    const parts: RawBuilder<unknown>[] = [];
    const rollup = (period: RollupPeriod, start: number, end: number) => {
      if (start < end) parts.push(this.rollupPart(query.accountId, 0, period, dimension, start, end));
    };
    const detailed = Math.max(from, detailFrom);
    rollup('day', floorDay(from), Math.min(detailFrom, to));
    const inner = { start: ceilDay(detailed), end: floorDay(to) };
    if (fine || inner.start >= inner.end) {
      rollup('quarter', detailed, to);
    } else {
      rollup('quarter', detailed, inner.start);
      rollup('day', inner.start, inner.end);
      rollup('quarter', inner.end, to);
    }
    if (parts.length === 0) rollup('quarter', from, from + 1); // nothing to count: one empty piece keeps the SQL whole
    return parts;
  }

  private rollupPart(accountId: number, linkId: number, period: RollupPeriod, dimension: RollupDimension, start: number, end: number) {
    return sql`select start, value, clicks from click_rollups
      where account_id = ${accountId} and link_id = ${linkId} and period = ${period} and dimension = ${dimension}
      and start >= ${start} and start < ${end}`;
  }

  private eventPart(query: ClickCountQuery, linkId: number, dimension: RollupDimension) {
    const { value, counts } = eventValue(dimension);
    return sql`select time - time % ${sql.lit(QUARTER_MS)} as start, ${value} as value, clicks from click_events
      where account_id = ${query.accountId} and link_id = ${linkId} and time >= ${query.from} and time < ${query.to} and ${counts}`;
  }
}
