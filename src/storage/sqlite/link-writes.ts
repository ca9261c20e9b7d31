import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { rulesColumn } from '../sql/link-rows.js';
import type { CreateOutcome, LinkRecord, NewLink } from '../stores/links.js';
import type { LinkRow } from '../tables.js';
import { SqliteCodedIds } from './coded-ids.js';

/** The insert's columns in the order of its placeholders. */
const INSERT =
  'insert into links (id, code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at, comment, password_hash, expires_at, updated_at, reusable, forward_query, rules, max_visits, preview_title, preview_description, preview_image, coded) ' +
  "values (?, ?, ?, ?, ?, ?, ?, ?, ?, 'public', ?, null, ?, ?, ?, null, ?, ?, ?, ?, ?, ?, ?, 1) on conflict do nothing";
// The dedupe index is partial: the query names its condition literally so SQLite uses it.
const DUPLICATE =
  'select * from links where account_id = ? and domain = ? and url_hash = ? and slug is null and deleted_at is null and reusable = true';
const HOLDER = 'select * from links where domain = ? and key = ? and (slug is not null or coded = false)';

type InsertParams = [
  number,
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
  string | null,
  number | null,
  string | null,
  string | null,
  string | null,
];

/**
 * A link's insert on SQLite's writing connection, as statements prepared once and run
 * synchronously inside the group commit: the same steps as PostgresLinkStore.create's Kysely
 * path (the id and its code, insert or nothing, then find out which unique index said no),
 * without building and compiling a query per link, and with the new row made from the values
 * inserted instead of read back.
 */
export class SqliteLinkWrites {
  private statements:
    | { insert: Statement<InsertParams>; duplicate: Statement<[number, string, Buffer], LinkRow>; holder: Statement<[string, string], LinkRow> }
    | undefined;
  readonly ids = new SqliteCodedIds();

  constructor(private readonly toRecord: (row: LinkRow) => LinkRecord) {}

  /** One link (see LinkStore.create). */
  create(sqlite: SQLite.Database, link: NewLink): CreateOutcome {
    const { insert, duplicate, holder } = this.prepared(sqlite);
    this.ids.lockForWrite(sqlite);
    if (link.slug !== null) {
      // A slug never takes a key a code made from an id already answers at on the domain (decision 0026).
      const coded = this.ids.codedHolder(sqlite, link.domain, link.slug);
      if (coded) return { slugTaken: this.toRecord(coded) };
    }
    const { id, code } = this.ids.next(sqlite, link.domain, link.codeLength);
    const key = link.slug ?? code;
    const createdAt = Date.now();
    const tryInsert = (reusable: boolean): LinkRecord | undefined => {
      const result = insert.run(
        id,
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
        rulesColumn(link.rules),
        link.maxVisits,
        link.preview?.title ?? null,
        link.preview?.description ?? null,
        link.preview?.image ?? null,
      );
      if (result.changes === 0) return undefined;
      return {
        id,
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
        rules: link.rules,
        maxVisits: link.maxVisits,
        preview: link.preview,
      };
    };
    const inserted = tryInsert(link.reusable);
    if (inserted) return { created: inserted };
    if (link.slug === null) {
      // Only the dedupe index can say no to a code made from a new id.
      const row = link.reusable ? duplicate.get(link.accountId, link.domain, link.urlHash) : undefined;
      if (row && link.reuseExisting) return { duplicate: this.toRecord(row) };
      const beside = row && tryInsert(false);
      if (beside) return { created: beside };
      throw new Error(`Link ${id} was refused by no index known`);
    }
    const taken = holder.get(link.domain, link.slug);
    if (taken) return { slugTaken: this.toRecord(taken) };
    throw new Error(`Link ${id} was refused by no index known`);
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
