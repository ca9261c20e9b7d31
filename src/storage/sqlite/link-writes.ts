import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type { CreateOutcome, LinkRecord, NewLink } from '../stores/links.js';
import type { LinkRow } from '../tables.js';

/** The insert's columns in the order of its placeholders. */
const INSERT =
  'insert into links (code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at, comment, password_hash, expires_at, updated_at, reusable, forward_query) ' +
  "values (?, ?, ?, ?, ?, ?, ?, ?, 'public', ?, null, ?, ?, ?, null, ?, ?) on conflict do nothing";
// The dedupe index is partial: the query names its condition literally so SQLite uses it.
const DUPLICATE =
  'select * from links where account_id = ? and domain = ? and url_hash = ? and slug is null and deleted_at is null and reusable = true';
const HOLDER = 'select * from links where domain = ? and key = ?';

type InsertParams = [
  string,
  string,
  string,
  string | null,
  string,
  Buffer,
  string | null,
  number,
  number,
  string | null,
  string | null,
  number | null,
  number,
  number,
];

/**
 * A link's insert on SQLite's writing connection, as statements prepared once and run
 * synchronously inside the group commit: the same steps as SqlLinkStore.create's Kysely
 * path (insert or nothing, then find out which unique index said no), without building
 * and compiling a query per link, and with the new row made from the values inserted
 * instead of read back.
 */
export class SqliteLinkWrites {
  private statements:
    | { insert: Statement<InsertParams>; duplicate: Statement<[number, string, Buffer], LinkRow>; holder: Statement<[string, string], LinkRow> }
    | undefined;

  constructor(private readonly toRecord: (row: LinkRow) => LinkRecord) {}

  /** One link (see LinkStore.create); `attempts` draws of a code at most. */
  create(sqlite: SQLite.Database, link: NewLink, drawCode: () => string, attempts: number): CreateOutcome {
    const { insert, duplicate, holder } = this.prepared(sqlite);
    for (let attempt = 0; attempt < attempts; attempt++) {
      const code = drawCode();
      const key = link.slug ?? code;
      const createdAt = Date.now();
      const tryInsert = (reusable: boolean): LinkRecord | undefined => {
        const result = insert.run(
          code,
          link.domain,
          key,
          link.slug,
          link.url,
          link.urlHash,
          link.title,
          link.accountId,
          createdAt,
          link.comment,
          link.passwordHash,
          link.expiresAt,
          reusable ? 1 : 0,
          link.forwardQuery ? 1 : 0,
        );
        if (result.changes === 0) return undefined;
        return {
          id: Number(result.lastInsertRowid),
          code,
          domain: link.domain,
          key,
          slug: link.slug,
          url: link.url,
          title: link.title,
          accountId: link.accountId,
          status: 'public',
          createdAt,
          deletedAt: null,
          comment: link.comment,
          passwordHash: link.passwordHash,
          expiresAt: link.expiresAt,
          updatedAt: null,
          reusable,
          forwardQuery: link.forwardQuery,
        };
      };
      const inserted = tryInsert(link.reusable);
      if (inserted) return { created: inserted };
      if (link.slug === null) {
        const row = link.reusable ? duplicate.get(link.accountId, link.domain, link.urlHash) : undefined;
        if (row && link.reuseExisting) return { duplicate: this.toRecord(row) };
        // A new link beside the dedupe link, under the code just drawn (it was the dedupe index that said no).
        const beside = row && tryInsert(false);
        if (beside) return { created: beside };
        continue;
      }
      const taken = holder.get(link.domain, link.slug);
      if (taken) return { slugTaken: this.toRecord(taken) };
    }
    throw new Error(`No free code after ${attempts} attempts; raise CODE_LENGTH`);
  }

  private prepared(sqlite: SQLite.Database) {
    this.statements ??= {
      insert: sqlite.prepare(INSERT),
      duplicate: sqlite.prepare(DUPLICATE),
      holder: sqlite.prepare(HOLDER),
    };
    return this.statements;
  }
}
