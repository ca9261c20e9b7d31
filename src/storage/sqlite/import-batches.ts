// `brief import` on SQLite (decision 0025): a batch's rows written one statement at a time, with
// statements prepared once, inside a write the caller opened.
import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { STORED_KEY } from '../sql/link-codes.js';
import { rulesColumn } from '../sql/link-rows.js';
import { importedEventData } from '../sql/webhook-outbox.js';
import { type ImportedLink, type ImportOutcome, placements } from '../stores/imports.js';
import { SqliteCodedIds } from './coded-ids.js';
import { SqliteOutboxWrites } from './webhook-outbox-writes.js';

/** A batch of an import as SQLite writes it, on this thread or the background thread: plain data, sent as a message. */
export interface ImportBatch {
  readonly source: string;
  readonly links: readonly ImportedLink[];
  /** The length of the codes made on each of the batch's domains. */
  readonly codeLengths: Readonly<Record<string, number>>;
  readonly dryRun: boolean;
}

/**
 * Writes import batches on one SQLite connection, with statements prepared once, inside a write
 * that the caller opened (a group commit on the server's connection, a transaction on the
 * background thread).
 */
export class SqliteImportBatches {
  private readonly statements: SqliteStatements;
  private readonly ids = new SqliteCodedIds();
  private readonly outbox = new SqliteOutboxWrites();

  constructor(private readonly sqlite: SQLite.Database) {
    this.statements = prepare(sqlite);
  }

  write({ source, links, codeLengths, dryRun }: ImportBatch): ImportOutcome[] {
    const run: SqliteRun = { ...this.statements, sqlite: this.sqlite, ids: this.ids, codeLength: (domain) => codeLengths[domain]! };
    // A write first: it takes the write lock (waiting busy_timeout for another writer) before any read
    // takes a snapshot, which another process's commit would make stale (SQLITE_BUSY, with no wait).
    run.lock.run();
    if (!dryRun) {
      const outcomes = links.map((link) => writeSqliteRow(run, source, link));
      // Their webhooks' events, in the batch's write (decision 0045).
      this.outbox.bulk(this.sqlite, 'links.imported', importedEventData(links, outcomes), { source });
      return outcomes;
    }
    run.dryOpen.run();
    try {
      return links.map((link) => writeSqliteRow(run, source, link));
    } finally {
      run.dryRollback.run();
      run.dryRelease.run();
    }
  }
}

interface SqliteStatements {
  lock: Statement;
  known: Statement<[string, string], number>;
  insert: Statement<unknown[]>;
  holder: Statement<[string, string], number>;
  note: Statement<[string, string, number, number]>;
  clicks: Statement<[number, number]>;
  tag: Statement<[number, string, string, number]>;
  linkTag: Statement<[number, number, string]>;
  dryOpen: Statement;
  dryRollback: Statement;
  dryRelease: Statement;
}

const INSERT_COLUMNS =
  'id, code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at, comment, password_hash, expires_at, updated_at, reusable, forward_query, rules, max_visits, limited_visits, preview_title, preview_description, preview_image, coded';

/** Pages the import's connection may keep (KiB, SQLite's negative cache_size): random keys touch every page of the indexes. */
const IMPORT_CACHE_KIB = 256 * 1024;

function prepare(sqlite: SQLite.Database): SqliteStatements {
  // The connection is the CLI's own: a larger page cache for the import does not reach a server's.
  sqlite.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  return {
    lock: sqlite.prepare('delete from link_imports where 0'),
    known: sqlite.prepare<[string, string], number>('select link_id from link_imports where source = ? and origin_key = ?').pluck(),
    // Imported links stay out of the dedupe index (reusable 0): the shortener they came from may hold several links to a URL.
    insert: sqlite.prepare(
      `insert into links (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, null, ?, null, 0, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
    ),
    holder: sqlite.prepare<[string, string], number>(`select id from links where domain = ? and key = ? and ${STORED_KEY}`).pluck(),
    note: sqlite.prepare('insert into link_imports (source, origin_key, link_id, imported_at) values (?, ?, ?, ?)'),
    clicks: sqlite.prepare('insert into link_clicks (link_id, clicks) values (?, ?)'),
    // A link's tags as sql/tag-store.ts writes them: the first spelling of a name in the workspace kept.
    tag: sqlite.prepare(
      'insert into tags (account_id, name, name_key, color, created_at) values (?, ?, ?, null, ?) on conflict (account_id, name_key) do nothing',
    ),
    linkTag: sqlite.prepare('insert or ignore into link_tags (tag_id, link_id) select id, ? from tags where account_id = ? and name_key = ?'),
    dryOpen: sqlite.prepare('savepoint import_dry'),
    dryRollback: sqlite.prepare('rollback to savepoint import_dry'),
    dryRelease: sqlite.prepare('release savepoint import_dry'),
  };
}

interface SqliteRun extends SqliteStatements {
  readonly sqlite: SQLite.Database;
  readonly ids: SqliteCodedIds;
  readonly codeLength: (domain: string) => number;
}

function writeSqliteRow(run: SqliteRun, source: string, link: ImportedLink): ImportOutcome {
  if (run.known.get(source, link.originKey) !== undefined) return { skipped: true };
  // A kept key never takes the place of a code made from an id on its domain.
  if (link.key !== null && run.ids.codedHolder(run.sqlite, link.domain, link.key)) return { keyTaken: true };
  for (const placement of placements(link)) {
    let id: number | null = null;
    let code: string;
    let slug: string | null = null;
    if ('keptCode' in placement) {
      code = placement.keptCode;
      // Codes are unique across domains: a kept code a link of another domain has becomes a slug.
      if (run.ids.codedWithCode(run.sqlite, code)) continue;
    } else {
      ({ id, code } = run.ids.next(run.sqlite, link.domain, run.codeLength(link.domain)));
      slug = placement.slug;
    }
    const key = slug ?? code;
    const result = run.insert.run(
      id,
      code,
      link.domain,
      key,
      slug,
      link.url,
      link.urlHash,
      link.title,
      link.accountId,
      link.status,
      link.createdAt,
      link.comment,
      link.expiresAt,
      link.forwardQuery ? 1 : 0,
      rulesColumn(link.rules),
      link.maxVisits,
      link.limitedVisits,
      link.preview?.title ?? null,
      link.preview?.description ?? null,
      link.preview?.image ?? null,
      id === null ? 0 : 1,
    );
    if (result.changes === 0) {
      if (run.holder.get(link.domain, key) !== undefined) return { keyTaken: true };
      continue; // the kept code alone was taken (on another domain)
    }
    const linkId = Number(result.lastInsertRowid);
    run.note.run(source, link.originKey, linkId, Date.now());
    if (link.clicks > 0) run.clicks.run(linkId, link.clicks);
    for (const name of link.tags) {
      run.tag.run(link.accountId, name, name.toLowerCase(), Date.now());
      run.linkTag.run(linkId, link.accountId, name.toLowerCase());
    }
    return { imported: { id: linkId, domain: link.domain, key, slug } };
  }
  throw new Error(`Import row ${link.originKey} found no place`);
}
