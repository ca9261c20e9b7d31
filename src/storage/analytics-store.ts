import { sql } from 'kysely';
import { inPowersOfTwo, paddedList } from './batch-shapes.js';
import { claimBatch } from './click-writes.js';
import type { Connection } from './connection.js';
import type { AnalyticsStore, ClickCountQuery, ClickEventBatch, ClickSlot, TopColumn, TopCount } from './stores.js';
import type { ClickEventTable } from './tables.js';

export class SqlAnalyticsStore implements AnalyticsStore {
  constructor(private readonly connection: Connection) {}

  add(batch: ClickEventBatch): Promise<void> {
    return this.connection.write(async (trx) => {
      // The same claim as a click batch's: a batch retried after an unclear failure is applied once.
      if (!(await claimBatch(trx, batch.writer, batch.seq))) return;
      const ids = [...new Set(batch.events.map((event) => event.linkId))];
      if (ids.length === 0) return;
      const links = await trx.selectFrom('links').select(['id', 'account_id']).where('id', 'in', paddedList(ids)).execute();
      const owners = new Map(links.map((link) => [Number(link.id), link.account_id]));
      const rows: Array<Omit<ClickEventTable, 'id'>> = [];
      for (const event of batch.events) {
        const accountId = owners.get(event.linkId);
        // Links are never removed (a delete marks them), so every visited link has its row.
        if (accountId === undefined) continue;
        rows.push({
          time: event.time,
          link_id: event.linkId,
          account_id: accountId,
          bot: event.bot,
          browser: event.browser,
          browser_version: event.browserVersion,
          os: event.os,
          device_type: event.deviceType,
          device_vendor: event.deviceVendor,
          language: event.language,
          referrer_host: event.referrerHost,
          country: event.country,
          city: event.city,
        });
      }
      for (const chunk of inPowersOfTwo(rows)) await trx.insertInto('click_events').values(chunk).execute();
    });
  }

  async humanClicksBySlot(query: ClickCountQuery, slotMs: number): Promise<ClickSlot[]> {
    const slot = sql<number>`${sql.ref('time')} / ${sql.lit(slotMs)}`;
    let select = this.connection.db
      .selectFrom('click_events')
      .select([slot.as('slot'), (eb) => eb.fn.countAll<number>().as('clicks')])
      .where('account_id', '=', query.accountId)
      .where('time', '>=', query.from)
      .where('time', '<', query.to)
      .where('bot', 'is', null);
    if (query.linkId !== undefined) select = select.where('link_id', '=', query.linkId);
    const rows = await select.groupBy(slot).execute();
    return rows.map((row) => ({ start: Number(row.slot) * slotMs, clicks: Number(row.clicks) }));
  }

  async topCounts(query: ClickCountQuery, column: TopColumn, limit?: number): Promise<TopCount[]> {
    // `column` is one of TOP_COLUMNS (a type the callers hold to), never text of a request.
    const value = sql.ref(column);
    const clicks = sql<number>`count(*)`;
    let select = this.events(query)
      .select([sql<string | number>`${value}`.as('value'), clicks.as('clicks')])
      .where(column, 'is not', null)
      .where('bot', column === 'bot' ? 'is not' : 'is', null)
      .groupBy(column)
      .orderBy(clicks, 'desc')
      .orderBy(column === 'link_id' ? value : this.binary(value));
    if (limit !== undefined) select = select.limit(limit);
    const rows = await select.execute();
    return rows.map((row) => ({ value: String(row.value), clicks: Number(row.clicks) }));
  }

  async topBrowserVersions(query: ClickCountQuery, browsers: readonly string[]): Promise<Map<string, string>> {
    const versions = new Map<string, string>();
    if (browsers.length === 0) return versions;
    const clicks = sql<number>`count(*)`;
    const rows = await this.events(query)
      .select(['browser', 'browser_version', clicks.as('clicks')])
      .where('bot', 'is', null)
      .where('browser', 'in', paddedList(browsers))
      .where('browser_version', 'is not', null)
      .groupBy(['browser', 'browser_version'])
      .orderBy(clicks, 'desc')
      .orderBy(this.binary(sql.ref('browser_version')))
      .execute();
    // Most clicked first: the first row of each browser is its version.
    for (const row of rows) if (row.browser !== null && !versions.has(row.browser)) versions.set(row.browser, String(row.browser_version));
    return versions;
  }

  /** The account's events of the range (of one link, with linkId). */
  private events(query: ClickCountQuery) {
    let select = this.connection.db
      .selectFrom('click_events')
      .where('account_id', '=', query.accountId)
      .where('time', '>=', query.from)
      .where('time', '<', query.to);
    if (query.linkId !== undefined) select = select.where('link_id', '=', query.linkId);
    return select;
  }

  /** A text column ordered by code point, as JavaScript compares strings (PostgreSQL's default collation need not). */
  private binary(ref: ReturnType<typeof sql.ref>) {
    return this.connection.dialect === 'postgres' ? sql`${ref} collate "C"` : sql`${ref}`;
  }
}
