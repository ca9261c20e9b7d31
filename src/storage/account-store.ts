import type { Connection } from './connection.js';
import type { AccountRecord, AccountStore, LiveToken, TokenRecord } from './stores/accounts.js';
import type { AccountRow, TokenRow } from './tables.js';

/** Scopes are stored space-separated; null is every scope. */
const storedScopes = (scopes: readonly string[] | null): string | null => (scopes === null ? null : scopes.join(' '));
const readScopes = (stored: string | null): string[] | null => (stored === null ? null : stored.split(' ').filter((scope) => scope !== ''));

const toAccount = (row: AccountRow): AccountRecord => ({ id: row.id, name: row.name, createdAt: row.created_at });

const toToken = (row: TokenRow): TokenRecord => ({
  id: row.id,
  accountId: row.account_id,
  label: row.label,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  scopes: readScopes(row.scopes),
  lastUsedAt: row.last_used_at,
});

export class SqlAccountStore implements AccountStore {
  constructor(private readonly connection: Connection) {}

  async create(name: string): Promise<AccountRecord | undefined> {
    const row = await this.connection.write((db) =>
      db
        .insertInto('accounts')
        .values({ name, created_at: Date.now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .returningAll()
        .executeTakeFirst(),
    );
    return row && toAccount(row);
  }

  async byName(name: string): Promise<AccountRecord | undefined> {
    const row = await this.connection.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
    return row && toAccount(row);
  }

  async byId(id: number): Promise<AccountRecord | undefined> {
    const row = await this.connection.db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toAccount(row);
  }

  async list(): Promise<AccountRecord[]> {
    const rows = await this.connection.db.selectFrom('accounts').selectAll().orderBy('name').execute();
    return rows.map(toAccount);
  }

  async addToken(token: {
    accountId: number;
    hash: string;
    label: string | null;
    expiresAt: number | null;
    scopes: readonly string[] | null;
  }): Promise<TokenRecord> {
    const row = await this.connection.write((db) =>
      db
        .insertInto('tokens')
        .values({
          account_id: token.accountId,
          token_hash: token.hash,
          label: token.label,
          created_at: Date.now(),
          expires_at: token.expiresAt,
          revoked_at: null,
          scopes: storedScopes(token.scopes),
          last_used_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return toToken(row);
  }

  async tokensOf(accountId: number): Promise<TokenRecord[]> {
    const rows = await this.connection.db.selectFrom('tokens').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
    return rows.map(toToken);
  }

  async revokeToken(id: number, accountId?: number): Promise<boolean> {
    const result = await this.connection.write((db) => {
      let update = db.updateTable('tokens').set({ revoked_at: Date.now() }).where('id', '=', id).where('revoked_at', 'is', null);
      if (accountId !== undefined) update = update.where('account_id', '=', accountId);
      return update.executeTakeFirst();
    });
    return Number(result.numUpdatedRows) > 0;
  }

  async tokenByHash(hash: string): Promise<LiveToken | undefined> {
    const row = await this.connection.db
      .selectFrom('tokens')
      .select(['id', 'account_id', 'expires_at', 'scopes', 'last_used_at'])
      .where('token_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row && { id: row.id, accountId: row.account_id, expiresAt: row.expires_at, scopes: readScopes(row.scopes), lastUsedAt: row.last_used_at };
  }

  async touchToken(id: number, at: number): Promise<void> {
    await this.connection.write((db) => db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).executeTakeFirst());
  }
}
