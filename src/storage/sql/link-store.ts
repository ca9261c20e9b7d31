import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Connection } from '../connection.js';
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
} from '../stores/links.js';
import type { TagFilter } from '../stores/tags.js';
import type { LinkRow, Tables } from '../tables.js';
import { inPowersOfTwo } from './batch-shapes.js';
import type { CodePermutation } from './code-permutation.js';
import { IS_STORED_CODE, IS_STORED_KEY, permutationOf } from './link-codes.js';
import { previewColumns, rulesColumn, TARGET_COLUMNS, toLinkRecord, toTarget } from './link-rows.js';
import { countTagged, type ResolvedTags, resolveTags, tagConditions } from './tag-filters.js';
import { dropTagsOf, writeLinkTags } from './tag-store.js';
import { recordLinkEvent } from './webhook-outbox.js';

// The dedupe index is partial (migrations/0003): a query uses it only when it names the
// index's condition literally, not as a bound parameter.
const REUSABLE = sql<boolean>`reusable = true`;

/**
 * Links in the queries Kysely builds the same on both dialects. Each dialect makes new links its own
 * way (sqlite/link-store.ts with statements prepared once, postgres/link-store.ts with the ids of the
 * table's sequence) and may answer the redirect's reads its own way.
 */
export abstract class SqlLinkStore<C extends Connection = Connection> implements LinkStore {
  abstract readonly syncReads: SyncLinkReads | undefined;
  private permutation: Promise<CodePermutation> | undefined;

  constructor(protected readonly connection: C) {}

  abstract create(link: NewLink): Promise<CreateOutcome>;
  abstract createMany(links: readonly NewLink[]): Promise<CreateOutcome[]>;

  /** The permutation of the database's secret, read once (again after a failed read). */
  protected codes(): Promise<CodePermutation> {
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

  findDuplicate(accountId: number, domain: string, urlHash: Buffer): Promise<LinkRecord | undefined> {
    return this.duplicateIn(this.connection.db, accountId, domain, urlHash);
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
      await dropTagsOf(db, [link.id]);
      await recordChange(db, link);
      await recordLinkEvent(db, 'link.deleted', { ...link, deletedAt: Date.now() });
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
          // Rules make a link of its own, as a password does: it no longer answers as "the" link to its URL.
          ...(changes.rules !== undefined && { rules: rulesColumn(changes.rules) }),
          ...(changes.rules !== undefined && changes.rules.length > 0 && { reusable: 0 }),
          ...(changes.maxVisits !== undefined && { max_visits: changes.maxVisits }),
          ...(changes.maxVisits != null && { reusable: 0 }),
          // A card makes a link of its own too.
          ...(changes.preview !== undefined && previewColumns(changes.preview)),
          ...(changes.preview != null && { reusable: 0 }),
          updated_at: Date.now(),
        })
        .where('id', '=', link.id)
        .where('deleted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (!row) return undefined;
      if (changes.tags !== undefined) await writeLinkTags(db, link.accountId, [{ linkId: link.id, tags: changes.tags }]);
      await recordChange(db, link);
      const updated = toLinkRecord(row);
      await recordLinkEvent(db, 'link.updated', updated);
      return updated;
    });
  }

  async listByAccount(
    accountId: number,
    offset: number,
    limit: number,
    search = '',
    tags?: TagFilter,
  ): Promise<{ total: number; links: CountedLink[] }> {
    const resolved = await resolveTags(this.connection.db, accountId, tags);
    const found = [...(matching(search) ?? []), ...tagConditions('links.id', resolved)];
    const [total, rows] = await Promise.all([
      this.countListed(accountId, search === '' ? resolved : undefined, found),
      this.connection.db
        .selectFrom('links')
        .leftJoin('link_clicks', 'link_clicks.link_id', 'links.id')
        .selectAll('links')
        .select('link_clicks.clicks')
        .where('links.account_id', '=', accountId)
        .where('links.deleted_at', 'is', null)
        .$if(found.length > 0, (query) => query.where(sql<boolean>`${sql.join(found, sql` and `)}`))
        .orderBy('links.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
    ]);
    return { total, links: rows.map(({ clicks, ...row }) => ({ link: toLinkRecord(row), clicks: Number(clicks ?? 0) })) };
  }

  /**
   * How many live links a list keeps. Filtered by tags alone, from link_tags (which holds live links only): a tag's
   * count is read off its index, not off a million links rows; `exclude` alone, as every link less the excluded.
   */
  private async countListed(accountId: number, byTagsAlone: ResolvedTags | undefined, conditions: readonly RawBuilder<boolean>[]): Promise<number> {
    const db = this.connection.db;
    if (byTagsAlone && (byTagsAlone.impossible || byTagsAlone.groups.length > 0)) return countTagged(db, byTagsAlone);
    if (byTagsAlone) {
      const [all, excluded] = await Promise.all([
        this.countListed(accountId, undefined, []),
        countTagged(db, { groups: byTagsAlone.none.length === 0 ? [] : [byTagsAlone.none], none: [], impossible: false }),
      ]);
      return all - excluded;
    }
    const counted = await db
      .selectFrom('links')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('account_id', '=', accountId)
      .where('deleted_at', 'is', null)
      .$if(conditions.length > 0, (query) => query.where(sql<boolean>`${sql.join(conditions, sql` and `)}`))
      .executeTakeFirstOrThrow();
    return Number(counted.count);
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

  protected async duplicateIn(db: Kysely<Tables>, accountId: number, domain: string, urlHash: Buffer): Promise<LinkRecord | undefined> {
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

/** In the write that changes a link: appends to the link_changes feed every instance polls. */
async function recordChange(db: Kysely<Tables>, link: LinkRecord): Promise<void> {
  await db.insertInto('link_changes').values({ domain: link.domain, key: link.key, created_at: Date.now() }).execute();
}

/**
 * A search of the caller's links: the text anywhere in the key, the destination or the comment, ignoring (ASCII) case,
 * with LIKE's wildcards in it taken literally. The same SQL on both engines.
 */
function matching(search: string): [RawBuilder<boolean>] | undefined {
  if (search === '') return undefined;
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const like = (column: 'links.key' | 'links.url' | 'links.comment') => sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
  return [sql<boolean>`(${like('links.key')} or ${like('links.url')} or ${like('links.comment')})`];
}
