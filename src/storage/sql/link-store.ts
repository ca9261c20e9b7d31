import type SQLite from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { inPowersOfTwo } from './batch-shapes.js';
import type { CodePermutation } from './code-permutation.js';
import { anyClash, codedHolderIn, codeHeld, nextIds } from './coded-ids.js';
import type { Connection } from './connection.js';
import { permutationOf, permutationSync, STORED_CODE, STORED_KEY } from './link-codes.js';
import { SqliteLinkWrites } from './sqlite/link-writes.js';
import type {
  CountedLink,
  CreateOutcome,
  LinkChanges,
  LinkRecord,
  LinkStatus,
  LinkStore,
  LinkTarget,
  NewLink,
  SyncLinkReads,
} from './stores/links.js';
import type { LinkRow, Tables } from './tables.js';

export function toLinkRecord(row: LinkRow): LinkRecord {
  return {
    id: row.id,
    code: row.code,
    domain: row.domain,
    key: row.key,
    slug: row.slug,
    url: row.url,
    title: row.title,
    accountId: row.account_id,
    status: row.status,
    createdAt: row.created_at,
    deletedAt: row.deleted_at,
    comment: row.comment,
    passwordHash: row.password_hash,
    expiresAt: row.expires_at,
    updatedAt: row.updated_at,
    reusable: Boolean(row.reusable),
    forwardQuery: Boolean(row.forward_query),
  };
}

/** The columns a redirect needs. */
const TARGET_COLUMNS = ['id', 'url', 'status', 'password_hash', 'expires_at', 'forward_query'] as const;
type TargetRow = Pick<LinkRow, (typeof TARGET_COLUMNS)[number]>;

/**
 * A target; a guard only when the link has a password or an expiry, and `forwardQuery` only when it is off, so
 * ordinary targets keep one shape.
 */
function toTarget(row: TargetRow | undefined): LinkTarget | null {
  if (!row) return null;
  const blocked = row.status === 'blocked';
  const target: LinkTarget =
    row.password_hash === null && row.expires_at === null
      ? { id: row.id, url: row.url, blocked }
      : { id: row.id, url: row.url, blocked, guard: { passwordHash: row.password_hash, expiresAt: row.expires_at } };
  return row.forward_query ? target : { ...target, forwardQuery: false };
}

// The dedupe index is partial (migrations/0003): a query uses it only when it names the
// index's condition literally, not as a bound parameter.
const REUSABLE = sql<boolean>`reusable = true`;
const IS_STORED_KEY = sql<boolean>`${sql.raw(STORED_KEY)}`;
const IS_STORED_CODE = sql<boolean>`${sql.raw(STORED_CODE)}`;

/** Links on either engine; on a SQLite file, the hot reads also go to the read-only connection. */
export class SqlLinkStore implements LinkStore {
  readonly syncReads: SyncLinkReads | undefined;
  private duplicateStatement: Statement<[number, string, Buffer], LinkRow> | undefined;
  private readonly sqliteWrites = new SqliteLinkWrites(toLinkRecord);
  private permutation: Promise<CodePermutation> | undefined;

  constructor(private readonly connection: Connection) {
    this.syncReads = connection.reader && new SqliteLinkReads(connection.reader);
  }

  /** The permutation of the database's secret, read once (again after a failed read). */
  private codes(): Promise<CodePermutation> {
    this.permutation ??= permutationOf(this.connection.db).catch((error: unknown) => {
      this.permutation = undefined;
      throw error;
    });
    return this.permutation;
  }

  /**
   * A code made from an id is found by the id it decodes to (its row must have the key, on the
   * domain); a slug, or a code stored before, by the unique index on the keys stored.
   */
  async target(domain: string, key: string): Promise<LinkTarget | null> {
    if (this.syncReads) return this.syncReads.target(domain, key);
    const db = this.connection.db;
    const id = (await this.codes()).decode(key);
    if (id !== undefined) {
      const row = await db
        .selectFrom('links')
        .select(TARGET_COLUMNS)
        .where('id', '=', id)
        .where('domain', '=', domain)
        .where('key', '=', key)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (row) return toTarget(row);
    }
    const row = await db
      .selectFrom('links')
      .select(TARGET_COLUMNS)
      .where('domain', '=', domain)
      .where('key', '=', key)
      .where(IS_STORED_KEY)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return toTarget(row);
  }

  /**
   * On SQLite it uses the read-only connection: synchronous, committed rows only, and not
   * queued behind an open group commit on the writer as a Kysely read is.
   */
  async findDuplicate(accountId: number, domain: string, urlHash: Buffer): Promise<LinkRecord | undefined> {
    const reader = this.connection.reader;
    if (!reader) return this.duplicateIn(this.connection.db, accountId, domain, urlHash);
    this.duplicateStatement ??= reader().prepare(
      'select * from links where account_id = ? and domain = ? and url_hash = ? and slug is null and deleted_at is null and reusable = true',
    );
    const row = this.duplicateStatement.get(accountId, domain, urlHash);
    return row && toLinkRecord(row);
  }

  create(link: NewLink): Promise<CreateOutcome> {
    const { writeSqlite } = this.connection;
    if (writeSqlite) return writeSqlite((sqlite) => this.sqliteWrites.create(sqlite, link));
    return this.codes().then((codes) => this.connection.write((db) => this.createIn(db, codes, link)));
  }

  async createMany(links: readonly NewLink[]): Promise<CreateOutcome[]> {
    const { writeSqlite } = this.connection;
    if (writeSqlite) return writeSqlite((sqlite) => links.map((link) => this.sqliteWrites.create(sqlite, link)));
    const codes = await this.codes();
    return this.connection.write(async (db) => {
      // The common case in one statement: every link new, no slug on a code, no code on a key
      // stored before. Otherwise, or when a unique index turns any of them away, that try is
      // undone and each link goes the one-link way in order, so a later link never takes a slug
      // or a dedupe slot before an earlier one. Ids taken for the try stay unused (gaps).
      await sql`savepoint links_many`.execute(db);
      const ids = await nextIds(db, links.length);
      const made = links.map((link, i) => codes.codeFor(ids[i]!, link.codeLength));
      if (
        !(await anyClash(
          db,
          codes,
          links.flatMap(({ domain, slug }) => (slug === null ? [] : [{ domain, key: slug }])),
          links.map((link, i) => ({ domain: link.domain, key: made[i]! })),
        ))
      ) {
        const rows = await db
          .insertInto('links')
          .values(links.map((link, i) => insertValues(link, ids[i]!, made[i]!, link.reusable)))
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .execute();
        if (rows.length === links.length) {
          const byId = new Map(rows.map((row) => [Number(row.id), row]));
          return ids.map((id) => ({ created: toLinkRecord(byId.get(id)!) }));
        }
      }
      await sql`rollback to savepoint links_many`.execute(db);
      const outcomes: CreateOutcome[] = [];
      for (const link of links) outcomes.push(await this.createIn(db, codes, link));
      return outcomes;
    });
  }

  /**
   * Takes the next id from the sequence and makes its code (passing over ids whose code a key
   * stored before holds, as SQLite does in sqlite/coded-ids.ts), inserts with ON CONFLICT DO
   * NOTHING and, when a unique index said no, finds out which: the account's own duplicate or a
   * taken slug. SQLite does the same with prepared statements (sqlite/link-writes.ts).
   */
  private async createIn(db: Kysely<Tables>, codes: CodePermutation, link: NewLink): Promise<CreateOutcome> {
    if (link.slug !== null) {
      const coded = await codedHolderIn(db, codes, link.domain, link.slug);
      if (coded) return { slugTaken: toLinkRecord(coded) };
    }
    let id: number;
    let code: string;
    do {
      [id] = (await nextIds(db, 1)) as [number];
      code = codes.codeFor(id, link.codeLength);
    } while (await codeHeld(db, link.domain, code));
    const insert = (reusable: boolean) =>
      db
        .insertInto('links')
        .values(insertValues(link, id, code, reusable))
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
    const inserted = await insert(link.reusable);
    if (inserted) return { created: toLinkRecord(inserted) };
    if (link.slug === null) {
      // Only the dedupe index can say no to a code made from a new id.
      const duplicate = link.reusable ? await this.duplicateIn(db, link.accountId, link.domain, link.urlHash) : undefined;
      if (duplicate && link.reuseExisting) return { duplicate };
      const beside = duplicate && (await insert(false));
      if (beside) return { created: toLinkRecord(beside) };
    } else {
      const holder = await db
        .selectFrom('links')
        .selectAll()
        .where('domain', '=', link.domain)
        .where('key', '=', link.slug)
        .where(IS_STORED_KEY)
        .executeTakeFirst();
      if (holder) return { slugTaken: toLinkRecord(holder) };
    }
    throw new Error(`Link ${id} was refused by no index known`);
  }

  async findByKey(domain: string, key: string, accountId?: number): Promise<LinkRecord | undefined> {
    const id = (await this.codes()).decode(key);
    return (
      (id !== undefined ? await this.findLive(id, 'key', key, domain, accountId) : undefined) ??
      (await this.findLive(undefined, 'key', key, domain, accountId))
    );
  }

  async findByCode(code: string, domain: string | undefined, accountId?: number): Promise<LinkRecord | undefined> {
    const id = (await this.codes()).decode(code);
    return (
      (id !== undefined ? await this.findLive(id, 'code', code, domain, accountId) : undefined) ??
      (await this.findLive(undefined, 'code', code, domain, accountId))
    );
  }

  markDeleted(link: LinkRecord): Promise<boolean> {
    return this.connection.write(async (db) => {
      const result = await db
        .updateTable('links')
        .set({ deleted_at: Date.now() })
        .where('id', '=', link.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      await recordChange(db, link);
      return true;
    });
  }

  setStatus(link: LinkRecord, status: LinkStatus, reason: string | null = null): Promise<void> {
    return this.connection.write(async (db) => {
      await db
        .updateTable('links')
        .set({ status, block_reason: status === 'blocked' ? reason : null })
        .where('id', '=', link.id)
        .execute();
      await recordChange(db, link);
    });
  }

  async blockReasonOf(linkId: number): Promise<string | null> {
    const row = await this.connection.db.selectFrom('links').select('block_reason').where('id', '=', linkId).executeTakeFirst();
    return row?.block_reason ?? null;
  }

  update(link: LinkRecord, changes: LinkChanges): Promise<LinkRecord | undefined> {
    return this.connection.write(async (db) => {
      const row = await db
        .updateTable('links')
        .set({
          // A new destination takes the link out of dedupe: it is no longer "the" link to either URL.
          ...(changes.url && { url: changes.url.href, url_hash: changes.url.hash, reusable: 0 }),
          ...(changes.comment !== undefined && { comment: changes.comment }),
          ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
          ...(changes.expiresAt !== undefined && { expires_at: changes.expiresAt }),
          // Off takes the link out of dedupe, as a new destination does: it no longer answers as "the" link to its URL.
          ...(changes.forwardQuery !== undefined && { forward_query: changes.forwardQuery ? 1 : 0 }),
          ...(changes.forwardQuery === false && { reusable: 0 }),
          updated_at: Date.now(),
        })
        .where('id', '=', link.id)
        .where('deleted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      await recordChange(db, link);
      return toLinkRecord(row);
    });
  }

  async listByAccount(accountId: number, offset: number, limit: number, search = ''): Promise<{ total: number; links: CountedLink[] }> {
    const db = this.connection.db;
    const found = matching(search);
    const [counted, rows] = await Promise.all([
      db
        .selectFrom('links')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('account_id', '=', accountId)
        .where('deleted_at', 'is', null)
        .$if(found !== undefined, (query) => query.where(found!))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('links')
        .leftJoin('link_clicks', 'link_clicks.link_id', 'links.id')
        .selectAll('links')
        .select('link_clicks.clicks')
        .where('links.account_id', '=', accountId)
        .where('links.deleted_at', 'is', null)
        .$if(found !== undefined, (query) => query.where(found!))
        .orderBy('links.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
    ]);
    return { total: Number(counted.count), links: rows.map(({ clicks, ...row }) => ({ link: toLinkRecord(row), clicks: Number(clicks ?? 0) })) };
  }

  async countLive(domain: string): Promise<number> {
    const live = await this.connection.db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('domain', '=', domain)
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(live.count);
  }

  async findByIds(accountId: number, ids: readonly number[]): Promise<LinkRecord[]> {
    // In power-of-two chunks (batch-shapes.ts): a few statement shapes, and never more bound values than an engine takes
    // (a top list of every link clicked in a range can name tens of thousands; the soak found SQLite's 32,766 exceeded).
    const rows: LinkRow[] = [];
    for (const chunk of inPowersOfTwo(ids)) {
      rows.push(...(await this.connection.db.selectFrom('links').selectAll().where('account_id', '=', accountId).where('id', 'in', chunk).execute()));
    }
    return rows.map(toLinkRecord);
  }

  async clicksOf(linkId: number): Promise<number> {
    const row = await this.connection.db.selectFrom('link_clicks').select('clicks').where('link_id', '=', linkId).executeTakeFirst();
    return row?.clicks ?? 0;
  }

  /** A live link by key or code: with `id`, the one row the value decodes to; without, by the indexes of what is stored. */
  private async findLive(
    id: number | undefined,
    column: 'key' | 'code',
    value: string,
    domain: string | undefined,
    accountId?: number,
  ): Promise<LinkRecord | undefined> {
    let query = this.connection.db.selectFrom('links').selectAll().where(column, '=', value).where('deleted_at', 'is', null);
    if (id !== undefined) query = query.where('id', '=', id);
    else query = query.where(column === 'key' ? IS_STORED_KEY : IS_STORED_CODE);
    if (domain !== undefined) query = query.where('domain', '=', domain);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    const row = await query.executeTakeFirst();
    return row && toLinkRecord(row);
  }

  private async duplicateIn(db: Kysely<Tables>, accountId: number, domain: string, urlHash: Buffer): Promise<LinkRecord | undefined> {
    const row = await db
      .selectFrom('links')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('domain', '=', domain)
      .where('url_hash', '=', urlHash)
      .where('slug', 'is', null)
      .where('deleted_at', 'is', null)
      .where(REUSABLE)
      .executeTakeFirst();
    return row && toLinkRecord(row);
  }
}

/** The row of a new link: its id and the code made from it. */
function insertValues(link: NewLink, id: number, code: string, reusable: boolean) {
  return {
    id,
    code,
    domain: link.domain,
    key: link.slug ?? code,
    slug: link.slug,
    url: link.url,
    url_hash: link.urlHash,
    title: link.title,
    account_id: link.accountId,
    status: 'public' as const,
    created_at: Date.now(),
    deleted_at: null,
    comment: link.comment,
    password_hash: link.passwordHash,
    expires_at: link.expiresAt,
    updated_at: null,
    reusable: reusable ? 1 : 0, // PostgreSQL reads '1' as true
    forward_query: link.forwardQuery ? 1 : 0,
    coded: 1,
  };
}

/** In the write that changes a link: appends to the link_changes feed every instance polls. */
async function recordChange(db: Kysely<Tables>, link: LinkRecord): Promise<void> {
  await db.insertInto('link_changes').values({ domain: link.domain, key: link.key, created_at: Date.now() }).execute();
}

/** The redirect path's reads on a SQLite file's read-only connection, as prepared statements. */
class SqliteLinkReads implements SyncLinkReads {
  private lookups:
    | { byId: Statement<[number, string, string], TargetRow>; byKey: Statement<[string, string], TargetRow>; codes: CodePermutation }
    | undefined;

  constructor(private readonly reader: () => SQLite.Database) {}

  /** As SqlLinkStore.target: a code by the id it decodes to, then a slug or a code stored before by its index. */
  target(domain: string, key: string): LinkTarget | null {
    const { byId, byKey, codes } = this.prepared();
    const id = codes.decode(key);
    if (id !== undefined) {
      const row = byId.get(id, domain, key);
      if (row) return toTarget(row);
    }
    return toTarget(byKey.get(domain, key));
  }

  private prepared() {
    if (this.lookups) return this.lookups;
    const reader = this.reader();
    const columns = TARGET_COLUMNS.join(', ');
    this.lookups = {
      byId: reader.prepare(`select ${columns} from links where id = ? and domain = ? and key = ? and deleted_at is null`),
      byKey: reader.prepare(`select ${columns} from links where domain = ? and key = ? and ${STORED_KEY} and deleted_at is null`),
      codes: permutationSync(reader),
    };
    return this.lookups;
  }

  highestId(): number {
    return this.reader().prepare<[], number | null>('select max(id) from links').pluck().get() ?? 0;
  }

  eachNewest(limit: number, visit: (domain: string, key: string, id: number, url: string, blocked: boolean) => void): void {
    const rows = this.reader()
      .prepare<[number], [string, string, number, string, string]>(
        'select domain, key, id, url, status from links where deleted_at is null and password_hash is null and expires_at is null and forward_query = 1 order by id desc limit ?',
      )
      .raw()
      .iterate(limit);
    for (const [domain, key, id, url, status] of rows) visit(domain, key, id, url, status === 'blocked');
  }

  releaseMemory(): void {
    this.reader().pragma('shrink_memory');
  }
}

/**
 * A search of the caller's links: the text anywhere in the key, the destination or the comment, ignoring (ASCII) case,
 * with LIKE's wildcards in it taken literally. The same SQL on both engines.
 */
function matching(search: string) {
  if (search === '') return undefined;
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: 'links.key' | 'links.url' | 'links.comment') => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  return sql<boolean>`(${like('links.key')} or ${like('links.url')} or ${like('links.comment')})`;
}
