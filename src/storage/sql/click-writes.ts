import type { Insertable, Kysely } from 'kysely';
import type { ClickEvent, ClickEventBatch } from '../stores/analytics.js';
import type { ClickBatch } from '../stores/clicks.js';
import type { ClickEventTable, Tables } from '../tables.js';
import { inPowersOfTwo } from './batch-shapes.js';
import { rollupRows } from './rollups.js';
import { recordClickEvents } from './webhook-outbox.js';

/** How long a writer's last number is kept after its last batch (a retry comes long before). */
export const WRITER_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * Applies one click batch inside the caller's transaction: claims the writer's number
 * (a batch applied before changes nothing), then adds the clicks. The one definition of
 * the click write, run by the server's connection and by the SQLite background thread.
 */
export async function applyClickBatch(trx: Kysely<Tables>, { writer, seq, clicks }: ClickBatch): Promise<void> {
  if (!(await claimBatch(trx, writer, seq))) return; // applied before: the attempt that seemed to fail had committed
  // In power-of-two chunks (batch-shapes.ts); a batch's links are distinct, so no chunk updates a row another did.
  for (const chunk of inPowersOfTwo(clicks)) {
    await trx
      .insertInto('link_clicks')
      .values(chunk.map(([link_id, n]) => ({ link_id, clicks: n })))
      .onConflict((oc) => oc.column('link_id').doUpdateSet((eb) => ({ clicks: eb('link_clicks.clicks', '+', eb.ref('excluded.clicks')) })))
      .execute();
  }
}

/**
 * Applies one batch of click events inside the caller's transaction, at most once per writer
 * and number: the events with their link's account, and the workspace rollups they add to
 * (rollups.ts), those of the `link_id` dimension only with `links` (PostgreSQL; SQLite rolls
 * them up afterwards, sqlite/link-rollups.ts). Run by the server's connection; the SQLite background
 * thread writes the same rows with prepared statements (sqlite/event-writes.ts).
 */
export async function applyEventBatch(trx: Kysely<Tables>, batch: ClickEventBatch, { links }: { links: boolean }): Promise<void> {
  if (!(await claimBatch(trx, batch.writer, batch.seq))) return;
  const ids = [...new Set(batch.events.map((event) => event.linkId))];
  if (ids.length === 0) return;
  const owners = new Map<number, number>();
  // Multi-row statements in power-of-two chunks: a few shapes, prepared once (batch-shapes.ts).
  for (const chunk of inPowersOfTwo(ids)) {
    const rows = await trx.selectFrom('links').select(['id', 'account_id']).where('id', 'in', chunk).execute();
    for (const link of rows) owners.set(Number(link.id), link.account_id);
  }
  const owned: Array<{ event: ClickEvent; accountId: number }> = [];
  for (const event of batch.events) {
    const accountId = owners.get(event.linkId);
    // Links are never removed (a delete marks them), so every visited link has its row.
    if (accountId !== undefined) owned.push({ event, accountId });
  }
  const events = owned.map(({ event, accountId }) => eventRow(event, accountId));
  for (const chunk of inPowersOfTwo(events)) await trx.insertInto('click_events').values(chunk).execute();
  const rollups = rollupRows(owned, { links });
  for (const chunk of inPowersOfTwo(rollups)) {
    await trx
      .insertInto('click_rollups')
      .values(chunk)
      .onConflict((oc) =>
        oc
          .columns(['account_id', 'link_id', 'period', 'dimension', 'start', 'value'])
          .doUpdateSet((eb) => ({ clicks: eb('click_rollups.clicks', '+', eb.ref('excluded.clicks')) })),
      )
      .execute();
  }
  // link.clicked, with the stored visits (decision 0045).
  await recordClickEvents(trx, owned);
}

function eventRow(event: ClickEvent, accountId: number): Insertable<ClickEventTable> {
  return {
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
    rule: event.rule,
    clicks: event.clicks,
  };
}

/**
 * Records a writer's batch number inside the caller's transaction: false when the number (or a
 * later one) was recorded before, so the batch was applied already. Writers are random per
 * process (click counters, analytics recorders), so they never share numbers.
 */
export async function claimBatch(trx: Kysely<Tables>, writer: string, seq: number): Promise<boolean> {
  const now = Date.now();
  const claimed = await trx
    .insertInto('click_writers')
    .values({ writer, seq, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('writer')
        .doUpdateSet((eb) => ({ seq: eb.ref('excluded.seq'), updated_at: eb.ref('excluded.updated_at') }))
        .where('click_writers.seq', '<', (eb) => eb.ref('excluded.seq')),
    )
    .returning('writer')
    .executeTakeFirst();
  if (!claimed) return false;
  if (seq === 1)
    await trx
      .deleteFrom('click_writers')
      .where('updated_at', '<', now - WRITER_RETENTION_MS)
      .execute();
  return true;
}
