import type { Connection } from '../connection.js';
import type { AccountRecord, AccountStore, LiveToken, NewToken, TokenRecord } from '../stores/accounts.js';
import type { AccountRow, RoleName, TokenRow } from '../tables.js';
import { roleHeldFor } from './memberships.js';
import type { WorkspaceLocks } from './workspace-locks.js';

/** Scopes are stored space-separated; null is every scope. */
const storedScopes = (scopes: readonly string[] | null): string | null => (scopes === null ? null : scopes.join(' '));
const readScopes = (stored: string | null): string[] | null => (stored === null ? null : stored.split(' ').filter((scope) => scope !== ''));

const toAccount = (row: AccountRow): AccountRecord => ({ id: row.id, name: row.name, createdAt: row.created_at });

const toToken = (row: TokenRow & { maker_email: string | null; maker_role: RoleName | null }): TokenRecord => ({
  id: row.id,
  accountId: row.account_id,
  label: row.label,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  scopes: readScopes(row.scopes),
  lastUsedAt: row.last_used_at,
  role: row.role,
  createdBy: row.created_by,
  makerEmail: row.maker_email,
  makerRole: row.maker_role,
});

/** Accounts (workspaces) and their tokens, in the same SQL on both dialects. */
export class SqlAccountStore implements AccountStore {
  constructor(
    private readonly connection: Connection,
    private readonly locks: WorkspaceLocks,
  ) {}

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

  async addToken(token: NewToken): Promise<TokenRecord | undefined> {
    const id = await this.connection.write(async (db) => {
      if (token.createdBy !== null && (await roleHeldFor(this.locks, db, token.accountId, token.createdBy)) === undefined) return undefined;
      const row = await db
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
          created_by: token.createdBy,
          role: token.role,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    if (id === undefined) return undefined;
    const [made] = await this.tokensWith().where('tokens.id', '=', id).execute();
    if (!made) throw new Error('the token just made is not there');
    return toToken(made);
  }

  async tokensOf(accountId: number): Promise<TokenRecord[]> {
    const rows = await this.tokensWith().where('tokens.account_id', '=', accountId).orderBy('tokens.id').execute();
    return rows.map(toToken);
  }

  /** Tokens with their maker's email and role in the token's workspace now (null for the operator, or a maker gone). */
  private tokensWith() {
    return this.connection.db
      .selectFrom('tokens')
      .leftJoin('users', 'users.id', 'tokens.created_by')
      .leftJoin('memberships', (join) =>
        join.onRef('memberships.user_id', '=', 'tokens.created_by').onRef('memberships.account_id', '=', 'tokens.account_id'),
      )
      .selectAll('tokens')
      .select(['users.email as maker_email', 'memberships.role as maker_role']);
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
    // One read: the token with its maker's role in its workspace now, which caps the token's.
    const row = await this.connection.db
      .selectFrom('tokens')
      .leftJoin('memberships', (join) =>
        join.onRef('memberships.user_id', '=', 'tokens.created_by').onRef('memberships.account_id', '=', 'tokens.account_id'),
      )
      .select([
        'tokens.id',
        'tokens.account_id',
        'tokens.expires_at',
        'tokens.scopes',
        'tokens.last_used_at',
        'tokens.role',
        'tokens.created_by',
        'memberships.role as maker_role',
      ])
      .where('tokens.token_hash', '=', hash)
      .where('tokens.revoked_at', 'is', null)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        accountId: row.account_id,
        expiresAt: row.expires_at,
        scopes: readScopes(row.scopes),
        lastUsedAt: row.last_used_at,
        role: row.role,
        createdBy: row.created_by,
        makerRole: row.maker_role,
      }
    );
  }

  async touchToken(id: number, at: number): Promise<void> {
    await this.connection.write((db) => db.updateTable('tokens').set({ last_used_at: at }).where('id', '=', id).executeTakeFirst());
  }
}
