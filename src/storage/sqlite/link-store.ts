import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { toLinkRecord } from '../sql/link-rows.js';
import { SqlLinkStore } from '../sql/link-store.js';
import type { CreateOutcome, LinkRecord, LinkTarget, NewLink } from '../stores/links.js';
import type { LinkRow } from '../tables.js';
import type { SqliteConnection } from './connection.js';
import { SqliteLinkReads } from './link-reads.js';
import { SqliteLinkWrites } from './link-writes.js';
import { SqliteOutboxWrites } from './webhook-outbox-writes.js';

/**
 * Links on SQLite: new links written with statements prepared once, on the writing connection inside
 * its group commit (link-writes.ts); on a file, the hot reads go to the read-only connection.
 */
export class SqliteLinkStore extends SqlLinkStore<SqliteConnection> {
  readonly syncReads: SqliteLinkReads | undefined;
  private duplicateStatement: Statement<[number, string, Buffer], LinkRow> | undefined;
  private readonly writes = new SqliteLinkWrites(toLinkRecord);
  private readonly outbox = new SqliteOutboxWrites();

  constructor(connection: SqliteConnection) {
    super(connection);
    this.syncReads = connection.reader && new SqliteLinkReads(connection.reader);
  }

  override async target(domain: string, key: string): Promise<LinkTarget | null> {
    if (this.syncReads) return this.syncReads.target(domain, key);
    return super.target(domain, key);
  }

  /**
   * On a file it uses the read-only connection: synchronous, committed rows only, and not
   * queued behind an open group commit on the writer as a Kysely read is.
   */
  override async findDuplicate(accountId: number, domain: string, urlHash: Buffer): Promise<LinkRecord | undefined> {
    const reader = this.connection.reader;
    if (!reader) return super.findDuplicate(accountId, domain, urlHash);
    this.duplicateStatement ??= reader().prepare(
      'select * from links where account_id = ? and domain = ? and url_hash = ? and slug is null and deleted_at is null and reusable = true',
    );
    const row = this.duplicateStatement.get(accountId, domain, urlHash);
    return row && toLinkRecord(row);
  }

  create(link: NewLink): Promise<CreateOutcome> {
    return this.connection.writeSqlite((sqlite) => this.createWithEvent(sqlite, link));
  }

  async createMany(links: readonly NewLink[]): Promise<CreateOutcome[]> {
    return this.connection.writeSqlite((sqlite) => links.map((link) => this.createWithEvent(sqlite, link)));
  }

  /** The link and, in the same write, its link.created deliveries (decision 0045). */
  private createWithEvent(sqlite: SQLite.Database, link: NewLink): CreateOutcome {
    const outcome = this.writes.create(sqlite, link);
    if ('created' in outcome) this.outbox.linkCreated(sqlite, outcome.created);
    return outcome;
  }
}
