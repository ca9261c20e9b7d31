import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Connection } from '../connection.js';
import type { AnalyticsStore, ClickCountQuery, ClickEventBatch, ClickSlot, TopColumn, TopCount } from '../stores/analytics.js';
import type { Tables } from '../tables.js';
import { ALL_DIMENSIONS, DAY_MS, eventValue, QUARTER_MS, type RollupDimension, type RollupPeriod, rollUpEvents } from './rollups.js';
import { tagConditions } from './tag-filters.js';

const floorDay = (t: number) => t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
const ceilDay = (t: number) => floorDay(t + DAY_MS - 1);

/**
 * Click events and their rollups (sql/rollups.ts), the queries the same on both dialects. A
 * workspace's figures come from its rollups (quarter hours at the edges of a range, whole days inside
 * it), so they cost the same however many events there are; one link's figures come from its events
 * and, before the retention cut-off, its day rows. How events are written is each dialect's own
 * (sqlite/analytics-store.ts, postgres/analytics-store.ts).
 */
export abstract class SqlAnalyticsStore<C extends Connection = Connection> implements AnalyticsStore {
  constructor(protected readonly connection: C) {}

  abstract add(batch: ClickEventBatch): Promise<void>;

  /** What orders the values of one count after their clicks: code point order on both dialects. */
  protected abstract readonly valueOrder: RawBuilder<unknown>;

  async humanClicksBySlot(query: ClickCountQuery): Promise<ClickSlot[]> {
    const parts = this.parts(query, 'clicks', true);
    const rows = await sql<{ start: number; clicks: number }>`
      select start, sum(clicks) as clicks from (${sql.join(parts, sql` union all `)}) as parts group by start`.execute(this.connection.db);
    return rows.rows.map((row) => ({ start: Number(row.start), clicks: Number(row.clicks) }));
  }

  topCounts(query: ClickCountQuery, column: TopColumn, limit?: number): Promise<TopCount[]> {
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
    const accounts = await this.connection.db.selectFrom('accounts').select('id').execute();
    // One short transaction per account: on SQLite, every other write waits for the one running.
    for (const { id } of accounts) await this.connection.write((trx) => this.expireAccount(trx, id, cutoff));
  }

  /** In its own transaction: one account's events before the cut-off rolled up into per-link day rows, then removed. */
  protected async expireAccount(trx: Kysely<Tables>, id: number, cutoff: number): Promise<void> {
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
  }

  /** Clicks per value of a dimension in the range, most first, then by value (code point order). */
  private async counts(query: ClickCountQuery, dimension: RollupDimension, limit?: number): Promise<TopCount[]> {
    const parts = this.parts(query, dimension, false);
    const order = this.valueOrder;
    const rows = await sql<{ value: string; clicks: number }>`
      select value, sum(clicks) as clicks from (${sql.join(parts, sql` union all `)}) as parts
      group by value order by sum(clicks) desc, ${order}${limit === undefined ? sql`` : sql` limit ${limit}`}`.execute(this.connection.db);
    return rows.rows.map((row) => ({ value: String(row.value), clicks: Number(row.clicks) }));
  }

  /**
   * The pieces that together count the range once (columns start, value, clicks). A workspace:
   * before `detailFrom` its day rows; from there, quarter-hour rows, or (`fine` false) day rows
   * for the whole UTC days inside the range and quarter-hour rows at its two edges. One link, or the links a tag
   * filter keeps (by their tags now): their events in the range, and their day rows (made from the events that
   * expired, so never both).
   */
  private parts(query: ClickCountQuery, dimension: RollupDimension, fine: boolean): RawBuilder<unknown>[] {
    const { from, to, detailFrom } = query;
    if (query.linkId !== undefined || query.tags !== undefined) {
      // Links' own rows only: a link's events, and its day rows (link_id 0 is the workspace's).
      // The column named with its table: the tag filter's subqueries have a link_id of their own.
      const links = (table: 'click_events' | 'click_rollups') => [
        query.linkId === undefined ? sql<boolean>`link_id <> 0` : sql<boolean>`link_id = ${query.linkId}`,
        ...tagConditions(`${table}.link_id`, query.accountId, query.tags),
      ];
      return [
        this.eventPart(query, links('click_events'), dimension),
        this.rollupPart(query.accountId, links('click_rollups'), 'day', dimension, floorDay(from), to),
      ];
    }
    const parts: RawBuilder<unknown>[] = [];
    const workspace = [sql<boolean>`link_id = 0`];
    const rollup = (period: RollupPeriod, start: number, end: number) => {
      if (start < end) parts.push(this.rollupPart(query.accountId, workspace, period, dimension, start, end));
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

  /** `links`: conditions on link_id (the workspace's rows, one link's, those of links a tag filter keeps). */
  private rollupPart(
    accountId: number,
    links: readonly RawBuilder<boolean>[],
    period: RollupPeriod,
    dimension: RollupDimension,
    start: number,
    end: number,
  ) {
    return sql`select start, value, clicks from click_rollups
      where account_id = ${accountId} and ${sql.join(links, sql` and `)} and period = ${period} and dimension = ${dimension}
      and start >= ${start} and start < ${end}`;
  }

  private eventPart(query: ClickCountQuery, links: readonly RawBuilder<boolean>[], dimension: RollupDimension) {
    const { value, counts } = eventValue(dimension);
    return sql`select time - time % ${sql.lit(QUARTER_MS)} as start, ${value} as value, clicks from click_events
      where account_id = ${query.accountId} and ${sql.join(links, sql` and `)} and time >= ${query.from} and time < ${query.to} and ${counts}`;
  }
}
