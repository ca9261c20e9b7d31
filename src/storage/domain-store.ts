import type { Connection } from './connection.js';
import type { DomainRecord, DomainStore } from './stores.js';
import type { DomainRow } from './tables.js';

const COLUMNS = ['hostname', 'url_prefix', 'account_id'] as const;
const toDomain = (row: Pick<DomainRow, (typeof COLUMNS)[number]>): DomainRecord => ({
  hostname: row.hostname,
  urlPrefix: row.url_prefix,
  accountId: row.account_id,
});

export class SqlDomainStore implements DomainStore {
  constructor(private readonly connection: Connection) {}

  async all(): Promise<DomainRecord[]> {
    const rows = await this.connection.db.selectFrom('domains').select(COLUMNS).execute();
    return rows.map(toDomain);
  }

  async byHostname(hostname: string): Promise<DomainRecord | undefined> {
    const row = await this.connection.db.selectFrom('domains').select(COLUMNS).where('hostname', '=', hostname).executeTakeFirst();
    return row && toDomain(row);
  }

  async usableBy(accountId: number | undefined): Promise<DomainRecord[]> {
    const rows = await this.connection.db
      .selectFrom('domains')
      .select(COLUMNS)
      .where((eb) =>
        accountId === undefined ? eb('account_id', 'is', null) : eb.or([eb('account_id', 'is', null), eb('account_id', '=', accountId)]),
      )
      .execute();
    return rows.map(toDomain);
  }

  async allWithOwners(): Promise<Array<DomainRecord & { owner: string | null }>> {
    const rows = await this.connection.db
      .selectFrom('domains')
      .leftJoin('accounts', 'accounts.id', 'domains.account_id')
      .select(['domains.hostname', 'domains.url_prefix', 'domains.account_id', 'accounts.name'])
      .orderBy('domains.hostname')
      .execute();
    return rows.map((row) => ({ ...toDomain(row), owner: row.name }));
  }

  async add(domain: DomainRecord): Promise<boolean> {
    const row = await this.connection.write((db) =>
      db
        .insertInto('domains')
        .values({ hostname: domain.hostname, url_prefix: domain.urlPrefix, account_id: domain.accountId, created_at: Date.now() })
        .onConflict((oc) => oc.column('hostname').doNothing())
        .returning('id')
        .executeTakeFirst(),
    );
    return row !== undefined;
  }

  async remove(hostname: string): Promise<boolean> {
    const result = await this.connection.write((db) => db.deleteFrom('domains').where('hostname', '=', hostname).executeTakeFirst());
    return Number(result.numDeletedRows) > 0;
  }
}
