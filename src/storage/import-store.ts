// `brief import` (decision 0025): links written a batch at a time, each with a note of the row it came
// from (link_imports), so a second run skips what the first imported. One batch is one short write:
// on SQLite one group commit with statements prepared once, on PostgreSQL one transaction.
import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { CodePermutation } from './code-permutation.js';
import { anyClash, codedHolderIn, codeHeld, nextIds } from './coded-ids.js';
import type { Connection } from './connection.js';
import { permutationOf, STORED_KEY } from './link-codes.js';
import { SqliteCodedIds } from './sqlite/coded-ids.js';
import type { Tables } from './tables.js';

/** A row of an import, checked and placed: what its link will be. */
export interface ImportedLink {
  /** The row's key where it came from (with its domain there): unique within its source. */
  readonly originKey: string;
  readonly accountId: number;
  readonly domain: string;
  /** The key the link keeps; null: it gets a code made from its new id. */
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
   * work, rolled back, so the outcomes say what a real run would do. `codeLength`: the length of
   * the codes made on a domain.
   */
  write(source: string, links: readonly ImportedLink[], codeLength: (domain: string) => number, dryRun: boolean): Promise<ImportOutcome[]>;
}

/** Where a row's link goes: a kept code (stored, as links from before keep theirs), or a code made from its id with its slug. */
type Placement = { readonly keptCode: string } | { readonly slug: string | null };

/** The first try, and after a collision on a kept code the next: the code becomes a slug. */
function placements(link: ImportedLink): Placement[] {
  if (link.key === null) return [{ slug: null }];
  return link.keyIsCode ? [{ keptCode: link.key }, { slug: link.key }] : [{ slug: link.key }];
}

export class SqlImportStore implements ImportStore {
  private statements: SqliteStatements | undefined;
  private readonly ids = new SqliteCodedIds();

  constructor(private readonly connection: Connection) {}

  write(source: string, links: readonly ImportedLink[], codeLength: (domain: string) => number, dryRun: boolean): Promise<ImportOutcome[]> {
    const { writeSqlite } = this.connection;
    if (writeSqlite) {
      return writeSqlite((sqlite) => {
        this.statements ??= prepare(sqlite);
        const run = { ...this.statements, sqlite, ids: this.ids, codeLength };
        // A write first: it takes the write lock (waiting busy_timeout for another writer) before any read
        // takes a snapshot, which another process's commit would make stale (SQLITE_BUSY, with no wait).
        run.lock.run();
        if (!dryRun) return links.map((link) => writeSqliteRow(run, source, link));
        run.dryOpen.run();
        try {
          return links.map((link) => writeSqliteRow(run, source, link));
        } finally {
          run.dryRollback.run();
          run.dryRelease.run();
        }
      });
    }
    return permutationOf(this.connection.db).then((codes) =>
      this.connection.write(async (db) => {
        if (dryRun) await sql`savepoint import_dry`.execute(db);
        const outcomes: ImportOutcome[] = [];
        for (let at = 0; at < links.length; at += SET_CHUNK) {
          outcomes.push(...(await writeRows(db, codes, source, links.slice(at, at + SET_CHUNK), codeLength)));
        }
        if (dryRun) await sql`rollback to savepoint import_dry`.execute(db);
        return outcomes;
      }),
    );
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
  'id, code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at, comment, password_hash, expires_at, updated_at, reusable, forward_query, coded';

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
      `insert into links (${INSERT_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, null, ?, null, 0, ?, ?) on conflict do nothing`,
    ),
    holder: sqlite.prepare<[string, string], number>(`select id from links where domain = ? and key = ? and ${STORED_KEY}`).pluck(),
    note: sqlite.prepare('insert into link_imports (source, origin_key, link_id, imported_at) values (?, ?, ?, ?)'),
    clicks: sqlite.prepare('insert into link_clicks (link_id, clicks) values (?, ?)'),
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
      id === null ? 0 : 1,
    );
    if (result.changes === 0) {
      if (run.holder.get(link.domain, key) !== undefined) return { keyTaken: true };
      continue; // the kept code alone was taken (on another domain)
    }
    const linkId = Number(result.lastInsertRowid);
    run.note.run(source, link.originKey, linkId, Date.now());
    if (link.clicks > 0) run.clicks.run(linkId, link.clicks);
    return { imported: { id: linkId, domain: link.domain, key } };
  }
  throw new Error(`Import row ${link.originKey} found no place`);
}

/** Rows a statement takes on PostgreSQL: 19 values a link stays under its 65,535 parameters. */
const SET_CHUNK = 2000;

/**
 * PostgreSQL: a chunk in a few statements instead of four a row. The rows imported before are read in one
 * query, the rest take their ids in one, are checked against the keys and codes stored in one, inserted in
 * one (ON CONFLICT DO NOTHING, matched back by their ids) and noted in one; a row a unique index turned
 * away, or any row of a chunk with a clash, goes the one-row way (writeRow), which tells a taken key from
 * a taken code.
 */
async function writeRows(
  db: Kysely<Tables>,
  codes: CodePermutation,
  source: string,
  links: readonly ImportedLink[],
  codeLength: (domain: string) => number,
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
  const fresh: Array<{ index: number; link: ImportedLink; placement: Placement }> = [];
  for (const [index, link] of links.entries()) {
    if (importedBefore.has(link.originKey)) {
      outcomes.push({ skipped: true });
      continue;
    }
    outcomes.push(undefined);
    // The same row twice in a chunk: the second goes the one-row way after the first is written (skipped, as on SQLite).
    if (seen.has(link.originKey)) continue;
    seen.add(link.originKey);
    fresh.push({ index, link, placement: placements(link)[0]! });
  }
  if (fresh.length > 0) {
    const ids = await nextIds(db, fresh.length);
    const rows = fresh.map(({ link, placement }, i) =>
      'keptCode' in placement
        ? linkValues(link, ids[i]!, placement.keptCode, null, false)
        : linkValues(link, ids[i]!, codes.codeFor(ids[i]!, codeLength(link.domain)), placement.slug, true),
    );
    const made = rows.filter((row) => row.coded === 1).map((row) => row.code);
    const kept = fresh.map(({ link }) => link.key);
    const keptHere = new Set(kept);
    if (!made.some((code) => keptHere.has(code)) && !(await anyClash(db, codes, kept, made))) {
      const inserted = await db
        .insertInto('links')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .returning(['id', 'domain', 'key'])
        .execute();
      const byId = new Map(inserted.map((row) => [Number(row.id), row]));
      const notes: Array<{ source: string; origin_key: string; link_id: number; imported_at: number }> = [];
      const clicks: Array<{ link_id: number; clicks: number }> = [];
      const now = Date.now();
      for (const [i, { index, link }] of fresh.entries()) {
        const row = byId.get(ids[i]!);
        if (!row) continue;
        outcomes[index] = { imported: { id: ids[i]!, domain: row.domain, key: row.key } };
        notes.push({ source, origin_key: link.originKey, link_id: ids[i]!, imported_at: now });
        if (link.clicks > 0) clicks.push({ link_id: ids[i]!, clicks: link.clicks });
      }
      if (notes.length > 0) await db.insertInto('link_imports').values(notes).execute();
      if (clicks.length > 0) await db.insertInto('link_clicks').values(clicks).execute();
    }
  }
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome === undefined) outcomes[index] = await writeRow(db, codes, source, links[index]!, codeLength);
  }
  return outcomes as ImportOutcome[];
}

function linkValues(link: ImportedLink, id: number, code: string, slug: string | null, coded: boolean) {
  return {
    id,
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
    coded: coded ? 1 : 0,
  };
}

async function writeRow(
  db: Kysely<Tables>,
  codes: CodePermutation,
  source: string,
  link: ImportedLink,
  codeLength: (domain: string) => number,
): Promise<ImportOutcome> {
  const known = await db
    .selectFrom('link_imports')
    .select('link_id')
    .where('source', '=', source)
    .where('origin_key', '=', link.originKey)
    .executeTakeFirst();
  if (known) return { skipped: true };
  if (link.key !== null && (await codedHolderIn(db, codes, link.domain, link.key))) return { keyTaken: true };
  for (const placement of placements(link)) {
    let values: ReturnType<typeof linkValues>;
    if ('keptCode' in placement) {
      const codedId = codes.decode(placement.keptCode);
      const coded =
        codedId !== undefined &&
        (await db.selectFrom('links').select('id').where('id', '=', codedId).where('code', '=', placement.keptCode).executeTakeFirst());
      if (coded) continue;
      const [id] = (await nextIds(db, 1)) as [number];
      values = linkValues(link, id, placement.keptCode, null, false);
    } else {
      let id: number;
      let code: string;
      do {
        [id] = (await nextIds(db, 1)) as [number];
        code = codes.codeFor(id, codeLength(link.domain));
      } while (await codeHeld(db, link.domain, code));
      values = linkValues(link, id, code, placement.slug, true);
    }
    const inserted = await db
      .insertInto('links')
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const holder = await db
        .selectFrom('links')
        .select('id')
        .where('domain', '=', link.domain)
        .where('key', '=', values.key)
        .where(sql<boolean>`${sql.raw(STORED_KEY)}`)
        .executeTakeFirst();
      if (holder) return { keyTaken: true };
      continue; // the kept code alone was taken (on another domain)
    }
    const id = Number(inserted.id);
    await db.insertInto('link_imports').values({ source, origin_key: link.originKey, link_id: id, imported_at: Date.now() }).execute();
    if (link.clicks > 0) await db.insertInto('link_clicks').values({ link_id: id, clicks: link.clicks }).execute();
    return { imported: { id, domain: link.domain, key: values.key } };
  }
  throw new Error(`Import row ${link.originKey} found no place`);
}
