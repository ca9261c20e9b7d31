import type { Connection } from './connection.js';
import type { DomainRecord, DomainSettings, DomainStore, StoredDomain } from './stores.js';
import type { DomainRow } from './tables.js';

const COLUMNS = ['hostname', 'url_prefix', 'account_id', 'code_length', 'home_redirect_url', 'not_found_redirect_url'] as const;
const toDomain = (row: Pick<DomainRow, (typeof COLUMNS)[number]>): StoredDomain => ({
  hostname: row.hostname,
  urlPrefix: row.url_prefix,
  accountId: row.account_id,
  codeLength: row.code_length,
  homeRedirectUrl: row.home_redirect_url,
  notFoundRedirectUrl: row.not_found_redirect_url,
});

/** Settings as columns; only the given ones. */
const settingColumns = (settings: Partial<DomainSettings>) => ({
  ...(settings.codeLength !== undefined && { code_length: settings.codeLength }),
  ...(settings.homeRedirectUrl !== undefined && { home_redirect_url: settings.homeRedirectUrl }),
  ...(settings.notFoundRedirectUrl !== undefined && { not_found_redirect_url: settings.notFoundRedirectUrl }),
});

export class SqlDomainStore implements DomainStore {
  constructor(private readonly connection: Connection) {}

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
      .select([
        'domains.hostname',
        'domains.url_prefix',
        'domains.account_id',
        'domains.code_length',
        'domains.home_redirect_url',
        'domains.not_found_redirect_url',
        'accounts.name',
      ])
      .orderBy('domains.hostname')
      .execute();
    return rows.map((row) => ({ ...toDomain(row), owner: row.name }));
  }

  async add(domain: DomainRecord & Partial<DomainSettings>): Promise<boolean> {
    const row = await this.connection.write((db) =>
      db
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
        })
        .onConflict((oc) => oc.column('hostname').doNothing())
        .returning('id')
        .executeTakeFirst(),
    );
    return row !== undefined;
  }

  async updateSettings(hostname: string, settings: Partial<DomainSettings>): Promise<boolean> {
    const columns = settingColumns(settings);
    if (Object.keys(columns).length === 0) return (await this.byHostname(hostname)) !== undefined;
    const result = await this.connection.write((db) => db.updateTable('domains').set(columns).where('hostname', '=', hostname).executeTakeFirst());
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(hostname: string): Promise<boolean> {
    const result = await this.connection.write((db) => db.deleteFrom('domains').where('hostname', '=', hostname).executeTakeFirst());
    return Number(result.numDeletedRows) > 0;
  }
}
