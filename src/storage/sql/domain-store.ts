import type { Kysely } from 'kysely';
import type { Connection } from '../connection.js';
import type { DomainSettings, DomainStore, NewDomain, StoredDomain } from '../stores/domains.js';
import type { DomainRow, Tables } from '../tables.js';
import { inPowersOfTwo } from './batch-shapes.js';
import { dropTagsOf } from './tag-store.js';
import { recordBulkLinkEvent, recordEvent } from './webhook-outbox.js';
import type { WorkspaceLocks } from './workspace-locks.js';

const COLUMNS = [
  'hostname',
  'url_prefix',
  'account_id',
  'code_length',
  'home_redirect_url',
  'not_found_redirect_url',
  'verified_at',
  'verification_token',
] as const;
const toDomain = (row: Pick<DomainRow, (typeof COLUMNS)[number]>): StoredDomain => ({
  hostname: row.hostname,
  urlPrefix: row.url_prefix,
  accountId: row.account_id,
  codeLength: row.code_length,
  homeRedirectUrl: row.home_redirect_url,
  notFoundRedirectUrl: row.not_found_redirect_url,
  // bigint on PostgreSQL arrives as a string
  verifiedAt: row.verified_at === null ? null : Number(row.verified_at),
  verificationToken: row.verification_token,
});

/** Settings as columns; only the given ones. */
const settingColumns = (settings: Partial<DomainSettings>) => ({
  ...(settings.codeLength !== undefined && { code_length: settings.codeLength }),
  ...(settings.homeRedirectUrl !== undefined && { home_redirect_url: settings.homeRedirectUrl }),
  ...(settings.notFoundRedirectUrl !== undefined && { not_found_redirect_url: settings.notFoundRedirectUrl }),
});

/**
 * A removed domain's `/.well-known/` files go with it, in the same write (decision 0042): whoever claims the name
 * next must not serve the last owner's app links.
 */
const removeFiles = (db: Kysely<Tables>, hostname: string) => db.deleteFrom('domain_well_known').where('domain', '=', hostname).execute();

/** Domains, in the same SQL on both dialects. */
export class SqlDomainStore implements DomainStore {
  constructor(
    private readonly connection: Connection,
    private readonly locks: WorkspaceLocks,
  ) {}

  async all(): Promise<StoredDomain[]> {
    const rows = await this.connection.db.selectFrom('domains').select(COLUMNS).execute();
    return rows.map(toDomain);
  }

  async byHostname(hostname: string): Promise<StoredDomain | undefined> {
    const row = await this.connection.db.selectFrom('domains').select(COLUMNS).where('hostname', '=', hostname).executeTakeFirst();
    return row && toDomain(row);
  }

  async usableBy(accountId: number | undefined): Promise<StoredDomain[]> {
    const rows = await this.connection.db
      .selectFrom('domains')
      .select(COLUMNS)
      .where((eb) =>
        accountId === undefined ? eb('account_id', 'is', null) : eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]),
      )
      .execute();
    return rows.map(toDomain);
  }

  async allWithOwners(): Promise<Array<StoredDomain & { owner: string | null }>> {
    const rows = await this.connection.db
      .selectFrom('domains')
      .leftJoin('accounts', 'accounts.id', 'domains.account_id')
      .select([...COLUMNS.map((column) => `domains.${column}` as const), 'accounts.name'])
      .orderBy('domains.hostname')
      .execute();
    return rows.map((row) => ({ ...toDomain(row), owner: row.name }));
  }

  add(domain: NewDomain, maxOfAccount?: number): Promise<'added' | 'taken' | 'limit'> {
    return this.connection.write(async (db) => {
      if (maxOfAccount !== undefined && domain.accountId !== null) {
        // Two claims of one account count one after the other.
        await this.locks.lockWorkspace(db, domain.accountId);
        const owned = await db
          .selectFrom('domains')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('account_id', '=', domain.accountId)
          .executeTakeFirstOrThrow();
        if (Number(owned.count) >= maxOfAccount) return 'limit';
      }
      const row = await db
        .insertInto('domains')
        .values({
          hostname: domain.hostname,
          url_prefix: domain.urlPrefix,
          account_id: domain.accountId,
          created_at: Date.now(),
          code_length: null,
          home_redirect_url: null,
          not_found_redirect_url: null,
          ...settingColumns(domain),
          verified_at: domain.verifiedAt,
          verification_token: domain.verificationToken,
        })
        .onConflict((oc) => oc.column('hostname').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row === undefined ? 'taken' : 'added';
    });
  }

  async updateSettings(hostname: string, settings: Partial<DomainSettings>): Promise<boolean> {
    const columns = settingColumns(settings);
    if (Object.keys(columns).length === 0) return (await this.byHostname(hostname)) !== undefined;
    const result = await this.connection.write((db) => db.updateTable('domains').set(columns).where('hostname', '=', hostname).executeTakeFirst());
    return Number(result.numUpdatedRows) > 0;
  }

  markVerified(hostname: string): Promise<boolean> {
    return this.connection.write(async (db) => {
      const domain = await db.selectFrom('domains').select(COLUMNS).where('hostname', '=', hostname).executeTakeFirst();
      if (domain === undefined) return false;
      if (domain.verified_at !== null) return true;
      const verifiedAt = Date.now();
      await db.updateTable('domains').set({ verified_at: verifiedAt }).where('hostname', '=', hostname).where('verified_at', 'is', null).execute();
      // A private domain's owner hears of it (decision 0045), in the same write.
      if (domain.account_id !== null) {
        await recordEvent(db, domain.account_id, 'domain.verified', { domain: hostname, urlPrefix: domain.url_prefix, verifiedAt });
      }
      return true;
    });
  }

  remove(hostname: string): Promise<boolean> {
    return this.connection.write(async (db) => {
      const result = await db.deleteFrom('domains').where('hostname', '=', hostname).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await removeFiles(db, hostname);
      return true;
    });
  }

  removeWithLinks(hostname: string): Promise<string[] | undefined> {
    return this.connection.write(async (db) => {
      const removed = await db.deleteFrom('domains').where('hostname', '=', hostname).executeTakeFirst();
      if (Number(removed.numDeletedRows) === 0) return undefined;
      await removeFiles(db, hostname);
      const now = Date.now();
      const deleted = await db
        .updateTable('links')
        .set({ deleted_at: now })
        .where('domain', '=', hostname)
        .where('deleted_at', 'is', null)
        .returning(['id', 'account_id', 'key', 'slug', 'url', 'title', 'comment', 'created_at', 'updated_at', 'expires_at'])
        .execute();
      await dropTagsOf(
        db,
        deleted.map((row) => Number(row.id)),
      );
      // Their owners' webhooks hear of it in this write (decision 0045), as they would of one delete each.
      await recordBulkLinkEvent(
        db,
        'links.deleted',
        deleted.map((row) => ({
          linkId: Number(row.id),
          accountId: row.account_id,
          domain: hostname,
          key: row.key,
          slug: row.slug,
          url: row.url,
          title: row.title,
          comment: row.comment,
          createdAt: Number(row.created_at),
          updatedAt: row.updated_at === null ? null : Number(row.updated_at),
          expiresAt: row.expires_at === null ? null : Number(row.expires_at),
          deletedAt: now,
        })),
        { domain: hostname },
      );
      const keys = deleted.map((row) => row.key);
      // Every instance drops the links from its caches as it does for a single delete.
      for (const chunk of inPowersOfTwo(keys)) {
        await db
          .insertInto('link_changes')
          .values(chunk.map((key) => ({ domain: hostname, key, created_at: now })))
          .execute();
      }
      return keys;
    });
  }
}
