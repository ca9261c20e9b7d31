import { sql } from 'kysely';
import { claimBatch } from './click-writes.js';
import type { Connection } from './connection.js';
import type { AnalyticsStore, ClickCountQuery, ClickEventBatch, ClickSlot } from './stores.js';
import type { ClickEventTable } from './tables.js';

export class SqlAnalyticsStore implements AnalyticsStore {
  constructor(private readonly connection: Connection) {}

  add(batch: ClickEventBatch): Promise<void> {
    return this.connection.write(async (trx) => {
      // The same claim as a click batch's: a batch retried after an unclear failure is applied once.
      if (!(await claimBatch(trx, batch.writer, batch.seq))) return;
      const ids = [...new Set(batch.events.map((event) => event.linkId))];
      if (ids.length === 0) return;
      const links = await trx.selectFrom('links').select(['id', 'account_id']).where('id', 'in', ids).execute();
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
      if (rows.length > 0) await trx.insertInto('click_events').values(rows).execute();
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
}
