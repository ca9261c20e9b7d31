import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { WRITER_RETENTION_MS } from '../sql/click-writes.js';
import { rollupRows } from '../sql/rollups.js';
import { CLICK_SUBSCRIBERS, type ClickSubscriber, clickDeliveries, newEventId } from '../sql/webhook-outbox.js';
import type { ClickEvent, ClickEventBatch } from '../stores/analytics.js';
import { LinkOwners } from './link-owners.js';

// A batch of click events on SQLite's background thread (background-thread.ts): the same rows as
// applyEventBatch (sql/click-writes.ts) writes through Kysely, as statements prepared once and run
// one row at a time. Building and compiling multi-row Kysely queries of 512 rows × 14 columns
// took more of the thread than SQLite's own work did (bench/event-write-cost.ts).

const CLAIM =
  'insert into click_writers (writer, seq, updated_at) values (?, ?, ?) ' +
  'on conflict (writer) do update set seq = excluded.seq, updated_at = excluded.updated_at where click_writers.seq < excluded.seq';
const FORGET_WRITERS = 'delete from click_writers where updated_at < ?';
const EVENT =
  'insert into click_events (time, link_id, account_id, bot, browser, browser_version, os, device_type, device_vendor, language, referrer_host, country, city, rule, clicks) ' +
  'values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
const ROLLUP =
  'insert into click_rollups (account_id, link_id, period, dimension, start, value, clicks) values (?, ?, ?, ?, ?, ?, ?) ' +
  'on conflict (account_id, link_id, period, dimension, start, value) do update set clicks = click_rollups.clicks + excluded.clicks';

const DELIVERY =
  'insert into webhook_deliveries (endpoint_id, event_id, type, data, created_at, status, attempts, next_attempt_at) ' +
  "values (?, ?, 'link.clicked', ?, ?, 'pending', 0, ?)";

export class SqliteEventWrites {
  private readonly clickSubscribers: Statement<[], ClickSubscriber>;
  private readonly delivery: Statement;
  private readonly claim: Statement;
  private readonly forgetWriters: Statement;
  private readonly owners: LinkOwners;
  private readonly event: Statement;
  private readonly rollup: Statement;
  private readonly write: (batch: ClickEventBatch) => void;

  constructor(sqlite: SQLite.Database) {
    this.claim = sqlite.prepare(CLAIM);
    this.forgetWriters = sqlite.prepare(FORGET_WRITERS);
    this.owners = new LinkOwners(sqlite);
    this.event = sqlite.prepare(EVENT);
    this.rollup = sqlite.prepare(ROLLUP);
    this.clickSubscribers = sqlite.prepare(CLICK_SUBSCRIBERS);
    this.delivery = sqlite.prepare(DELIVERY);
    this.write = sqlite.transaction((batch: ClickEventBatch) => this.apply(batch));
  }

  /** Writes a batch in one transaction, at most once per writer and number (see claimBatch). */
  add(batch: ClickEventBatch): void {
    this.write(batch);
  }

  private apply({ writer, seq, events }: ClickEventBatch): void {
    const now = Date.now();
    if (this.claim.run(writer, seq, now).changes === 0) return; // applied before
    if (seq === 1) this.forgetWriters.run(now - WRITER_RETENTION_MS);
    const owned: Array<{ event: ClickEvent; accountId: number }> = [];
    for (const event of events) {
      const accountId = this.owners.of(event.linkId);
      // Links are never removed (a delete marks them), so every visited link has its row.
      if (accountId === undefined) continue;
      owned.push({ event, accountId });
      const { time, linkId, bot, browser, browserVersion, os, deviceType, deviceVendor, language, referrerHost, country, city, rule, clicks } = event;
      this.event.run(
        time,
        linkId,
        accountId,
        bot,
        browser,
        browserVersion,
        os,
        deviceType,
        deviceVendor,
        language,
        referrerHost,
        country,
        city,
        rule,
        clicks,
      );
    }
    // The link_id rows come later, from the stored events (rollUpLinkEvents, decision 0013).
    for (const r of rollupRows(owned, { links: false })) this.rollup.run(r.account_id, r.link_id, r.period, r.dimension, r.start, r.value, r.clicks);
    // link.clicked, in the same transaction as the visits (sql/webhook-outbox.ts's recordClickEvents).
    if (owned.length === 0) return;
    for (const { endpointId, data } of clickDeliveries(owned, this.clickSubscribers.all())) {
      this.delivery.run(endpointId, newEventId(), data, now, now);
    }
  }
}
