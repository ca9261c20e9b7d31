// `brief import` (decision 0025): links written a batch at a time, each with a note of the row it came
// from (link_imports), so a second run skips what the first imported. One batch is one short write:
// on SQLite one group commit with statements prepared once, on PostgreSQL one transaction.
import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Connection } from './connection.js';
import type { Tables } from './tables.js';

/** A row of an import, checked and placed: what its link will be. */
export interface ImportedLink {
  /** The row's key where it came from (with its domain there): unique within its source. */
  readonly originKey: string;
  readonly accountId: number;
  readonly domain: string;
  /** The key the link keeps; null: a new code is drawn. */
  readonly key: string | null;
  /** The key was a generated code (a Brief export's `isSlug: false`): kept as the link's code when free. */
  readonly keyIsCode: boolean;
  readonly url: string;
  readonly urlHash: Buffer;
  readonly title: string | null;
  readonly comment: string | null;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly status: 'public' | 'blocked';
  /** Clicks counted where it came from: the link starts with them. */
  readonly clicks: number;
  readonly forwardQuery: boolean;
}

/** What became of one row: its new link, already imported by an earlier run, or its key held by another link. */
export type ImportOutcome =
  | { readonly imported: { readonly id: number; readonly domain: string; readonly key: string } }
  | { readonly skipped: true }
  | { readonly keyTaken: true };

export interface ImportStore {
  /**
   * Writes a batch in one short transaction; outcomes in the batch's order. `dryRun`: the same
   * work, rolled back, so the outcomes say what a real run would do.
   */
  write(source: string, links: readonly ImportedLink[], drawCode: (domain: string) => string, dryRun: boolean): Promise<ImportOutcome[]>;
}

// More than a collision of random codes could plausibly need (as link-store.ts).
const CODE_ATTEMPTS = 10;

/** Where a row's link goes: its code, and its slug (null: the code is the key). */
interface Placement {
  code: string;
  slug: string | null;
}

/** The first try, and after a collision on the code alone the next: a kept code becomes a slug, a drawn one is drawn again. */
function placements(link: ImportedLink, drawCode: (domain: string) => string): Iterable<Placement> {
  return {
    *[Symbol.iterator]() {
      if (link.key === null) {
        for (let i = 0; i < CODE_ATTEMPTS; i++) yield { code: drawCode(link.domain), slug: null };
        return;
      }
      if (link.keyIsCode) yield { code: link.key, slug: null };
      for (let i = 0; i < CODE_ATTEMPTS; i++) yield { code: drawCode(link.domain), slug: link.key };
    },
  };
}

export class SqlImportStore implements ImportStore {
  private statements: SqliteStatements | undefined;

  constructor(private readonly connection: Connection) {}

  write(source: string, links: readonly ImportedLink[], drawCode: (domain: string) => string, dryRun: boolean): Promise<ImportOutcome[]> {
    const { writeSqlite } = this.connection;
    if (writeSqlite) {
      return writeSqlite((sqlite) => {
        this.statements ??= prepare(sqlite);
        const run = this.statements;
        // A write first: it takes the write lock (waiting busy_timeout for another writer) before any read
        // takes a snapshot, which another process's commit would make stale (SQLITE_BUSY, with no wait).
        run.lock.run();
        if (!dryRun) return links.map((link) => writeSqliteRow(run, source, link, drawCode));
        run.dryOpen.run();
        try {
          return links.map((link) => writeSqliteRow(run, source, link, drawCode));
        } finally {
          run.dryRollback.run();
          run.dryRelease.run();
        }
      });
    }
    return this.connection.write(async (db) => {
      if (dryRun) await sql`savepoint import_dry`.execute(db);
      const outcomes: ImportOutcome[] = [];
      for (let at = 0; at < links.length; at += SET_CHUNK) outcomes.push(...(await writeRows(db, source, links.slice(at, at + SET_CHUNK), drawCode)));
      if (dryRun) await sql`rollback to savepoint import_dry`.execute(db);
      return outcomes;
    });
  }
}

interface SqliteStatements {
  lock: Statement;
  known: Statement<[string, string], number>;
  insert: Statement<unknown[]>;
  holder: Statement<[string, string], number>;
  note: Statement<[string, string, number, number]>;
  clicks: Statement<[number, number]>;
  dryOpen: Statement;
  dryRollback: Statement;
  dryRelease: Statement;
}

const INSERT_COLUMNS =
  'code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at, comment, password_hash, expires_at, updated_at, reusable, forward_query';

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
      `insert into links (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, null, ?, null, 0, ?) on conflict do nothing`,
    ),
    holder: sqlite.prepare<[string, string], number>('select id from links where domain = ? and key = ?').pluck(),
    note: sqlite.prepare('insert into link_imports (source, origin_key, link_id, imported_at) values (?, ?, ?, ?)'),
    clicks: sqlite.prepare('insert into link_clicks (link_id, clicks) values (?, ?)'),
    dryOpen: sqlite.prepare('savepoint import_dry'),
    dryRollback: sqlite.prepare('rollback to savepoint import_dry'),
    dryRelease: sqlite.prepare('release savepoint import_dry'),
  };
}

function writeSqliteRow(run: SqliteStatements, source: string, link: ImportedLink, drawCode: (domain: string) => string): ImportOutcome {
  if (run.known.get(source, link.originKey) !== undefined) return { skipped: true };
  for (const { code, slug } of placements(link, drawCode)) {
    const key = slug ?? code;
    const result = run.insert.run(
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
    );
    if (result.changes === 0) {
      if (run.holder.get(link.domain, key) !== undefined) return { keyTaken: true };
      continue; // the code alone was taken (on another domain, or drawn before)
    }
    const id = Number(result.lastInsertRowid);
    run.note.run(source, link.originKey, id, Date.now());
    if (link.clicks > 0) run.clicks.run(id, link.clicks);
    return { imported: { id, domain: link.domain, key } };
  }
  throw new Error(`No free code after ${CODE_ATTEMPTS} attempts; raise CODE_LENGTH`);
}

/** Rows a statement takes on PostgreSQL: 17 values a link stays under its 65,535 parameters. */
const SET_CHUNK = 2000;

/**
 * PostgreSQL: a chunk in a few statements instead of four a row. The rows imported before are read in one
 * query, the rest inserted in one (ON CONFLICT DO NOTHING, matched back by their codes, which are distinct
 * in the chunk), and noted in one; a row a unique index turned away goes the one-row way (writeRow), which
 * tells a taken key from a code collision.
 */
async function writeRows(
  db: Kysely<Tables>,
  source: string,
  links: readonly ImportedLink[],
  drawCode: (domain: string) => string,
): Promise<ImportOutcome[]> {
  const known = await db
    .selectFrom('link_imports')
    .select('origin_key')
    .where('source', '=', source)
    .where(
      'origin_key',
      'in',
      links.map((link) => link.originKey),
    )
    .execute();
  const importedBefore = new Set(known.map((row) => row.origin_key));
  const seen = new Set<string>();
  const outcomes: Array<ImportOutcome | undefined> = [];
  const fresh: Array<{ index: number; link: ImportedLink; code: string; slug: string | null }> = [];
  const codes = new Set<string>();
  for (const [index, link] of links.entries()) {
    if (importedBefore.has(link.originKey)) {
      outcomes.push({ skipped: true });
      continue;
    }
    outcomes.push(undefined);
    // The same row twice in a chunk: the second goes the one-row way after the first is written (skipped, as on SQLite).
    if (seen.has(link.originKey)) continue;
    seen.add(link.originKey);
    const first = placements(link, drawCode)[Symbol.iterator]().next().value as Placement;
    if (codes.has(first.code)) continue; // settled the one-row way below
    codes.add(first.code);
    fresh.push({ index, link, ...first });
  }
  const inserted =
    fresh.length === 0
      ? []
      : await db
          .insertInto('links')
          .values(fresh.map(({ link, code, slug }) => linkValues(link, code, slug)))
          .onConflict((oc) => oc.doNothing())
          .returning(['id', 'code', 'domain', 'key'])
          .execute();
  const byCode = new Map(inserted.map((row) => [row.code, row]));
  const notes: Array<{ source: string; origin_key: string; link_id: number; imported_at: number }> = [];
  const clicks: Array<{ link_id: number; clicks: number }> = [];
  const now = Date.now();
  for (const { index, link, code } of fresh) {
    const row = byCode.get(code);
    if (!row) continue;
    const id = Number(row.id);
    outcomes[index] = { imported: { id, domain: row.domain, key: row.key } };
    notes.push({ source, origin_key: link.originKey, link_id: id, imported_at: now });
    if (link.clicks > 0) clicks.push({ link_id: id, clicks: link.clicks });
  }
  if (notes.length > 0) await db.insertInto('link_imports').values(notes).execute();
  if (clicks.length > 0) await db.insertInto('link_clicks').values(clicks).execute();
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome === undefined) outcomes[index] = await writeRow(db, source, links[index]!, drawCode);
  }
  return outcomes as ImportOutcome[];
}

function linkValues(link: ImportedLink, code: string, slug: string | null) {
  return {
    code,
    domain: link.domain,
    key: slug ?? code,
    slug,
    url: link.url,
    url_hash: link.urlHash,
    title: link.title,
    account_id: link.accountId,
    status: link.status,
    created_at: link.createdAt,
    deleted_at: null,
    comment: link.comment,
    password_hash: null,
    expires_at: link.expiresAt,
    updated_at: null,
    reusable: 0, // PostgreSQL reads '0' as false
    forward_query: link.forwardQuery ? 1 : 0,
  };
}

async function writeRow(db: Kysely<Tables>, source: string, link: ImportedLink, drawCode: (domain: string) => string): Promise<ImportOutcome> {
  const known = await db
    .selectFrom('link_imports')
    .select('link_id')
    .where('source', '=', source)
    .where('origin_key', '=', link.originKey)
    .executeTakeFirst();
  if (known) return { skipped: true };
  for (const { code, slug } of placements(link, drawCode)) {
    const key = slug ?? code;
    const inserted = await db
      .insertInto('links')
      .values(linkValues(link, code, slug))
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const holder = await db.selectFrom('links').select('id').where('domain', '=', link.domain).where('key', '=', key).executeTakeFirst();
      if (holder) return { keyTaken: true };
      continue;
    }
    const id = Number(inserted.id);
    await db.insertInto('link_imports').values({ source, origin_key: link.originKey, link_id: id, imported_at: Date.now() }).execute();
    if (link.clicks > 0) await db.insertInto('link_clicks').values({ link_id: id, clicks: link.clicks }).execute();
    return { imported: { id, domain: link.domain, key } };
  }
  throw new Error(`No free code after ${CODE_ATTEMPTS} attempts; raise CODE_LENGTH`);
}
