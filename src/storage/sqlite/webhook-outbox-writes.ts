import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { BULK_LINK_EVENTS, type BulkLinkEvent, bulkEventChunks, linkEventData, newEventId, subscribedTo } from '../sql/webhook-outbox.js';
import type { LinkRecord } from '../stores/links.js';
import type { LinkEventData } from '../stores/webhooks.js';

const SUBSCRIBERS = "select id from webhook_endpoints where account_id = ? and disabled_at is null and (' ' || events || ' ') like ?";
const INSERT =
  'insert into webhook_deliveries (endpoint_id, event_id, type, data, created_at, status, attempts, next_attempt_at) ' +
  "values (?, ?, ?, ?, ?, 'pending', 0, ?)";

/**
 * sql/webhook-outbox.ts's recordEvent for a new link, as statements prepared once and run synchronously on the
 * writing connection inside the group commit that inserts the link (link-writes.ts): the same rows.
 */
export class SqliteOutboxWrites {
  private statements:
    | { subscribers: Statement<[number, string], { id: number }>; insert: Statement<[number, string, string, string, number, number]> }
    | undefined;

  linkCreated(sqlite: SQLite.Database, link: LinkRecord): void {
    this.write(sqlite, link.accountId, 'link.created', 'link.created', JSON.stringify(linkEventData(link)));
  }

  /** recordBulkLinkEvent's rows (an import batch's links.imported), on the connection writing the batch. */
  bulk(sqlite: SQLite.Database, type: BulkLinkEvent, links: readonly LinkEventData[], extra: object): void {
    for (const { accountId, data } of bulkEventChunks(links, extra)) this.write(sqlite, accountId, BULK_LINK_EVENTS[type], type, data);
  }

  /** One event, for every endpoint of the account subscribed to `subscribed`. */
  private write(sqlite: SQLite.Database, accountId: number, subscribed: string, type: string, data: string): void {
    this.statements ??= { subscribers: sqlite.prepare(SUBSCRIBERS), insert: sqlite.prepare(INSERT) };
    const endpoints = this.statements.subscribers.all(accountId, subscribedTo(subscribed));
    if (endpoints.length === 0) return;
    const now = Date.now();
    const eventId = newEventId();
    for (const { id } of endpoints) this.statements.insert.run(id, eventId, type, data, now, now);
  }
}
