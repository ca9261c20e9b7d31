import { AppError } from '../http/app-error.js';
import type { Database } from '../storage/database.js';
import type { AccountRow, TokenRow } from '../storage/tables.js';
import { generateToken, hashToken } from './tokens.js';

export const ANONYMOUS_ACCOUNT = 'anonymous';
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const DAY_MS = 86_400_000;

/** Who is making a request. */
export interface Caller {
  readonly accountId: number;
  readonly anonymous: boolean;
}

export class AccountService {
  private anonymousId: number | undefined;

  constructor(private readonly database: Database) {}

  async anonymousCaller(): Promise<Caller> {
    this.anonymousId ??= (await this.byName(ANONYMOUS_ACCOUNT)).id;
    return { accountId: this.anonymousId, anonymous: true };
  }

  async create(name: string): Promise<AccountRow> {
    if (!ACCOUNT_NAME.test(name)) {
      throw AppError.invalid('name', 'regex', 'Account names are 1-64 letters, digits, "_", ".", "@" or "-", starting with a letter or digit');
    }
    const row = await this.database.write((db) =>
      db
        .insertInto('accounts')
        .values({ name, created_at: Date.now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .returningAll()
        .executeTakeFirst(),
    );
    if (!row) throw AppError.invalid('name', 'unique', `Account "${name}" already exists`);
    return row;
  }

  async byName(name: string): Promise<AccountRow> {
    const row = await this.database.db.selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirst();
    if (!row) throw AppError.notFound(`No account named "${name}"`);
    return row;
  }

  list(): Promise<AccountRow[]> {
    return this.database.db.selectFrom('accounts').selectAll().orderBy('name').execute();
  }

  /** Makes a token for an account; returns the token itself, which is shown once and never stored. */
  async createToken(accountName: string, options: { label?: string; expiresInDays?: number } = {}) {
    const account = await this.byName(accountName);
    if (account.name === ANONYMOUS_ACCOUNT) throw AppError.invalid('account', 'anonymous', 'The anonymous account cannot have tokens');
    const token = generateToken();
    const now = Date.now();
    const row = await this.database.write((db) =>
      db
        .insertInto('tokens')
        .values({
          account_id: account.id,
          token_hash: hashToken(token),
          label: options.label ?? null,
          created_at: now,
          expires_at: options.expiresInDays === undefined ? null : now + options.expiresInDays * DAY_MS,
          revoked_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return { token, row };
  }

  async listTokens(accountName: string): Promise<TokenRow[]> {
    const account = await this.byName(accountName);
    return this.database.db.selectFrom('tokens').selectAll().where('account_id', '=', account.id).orderBy('id').execute();
  }

  async revokeToken(id: number): Promise<void> {
    const result = await this.database.write((db) =>
      db.updateTable('tokens').set({ revoked_at: Date.now() }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst(),
    );
    if (Number(result.numUpdatedRows) === 0) throw AppError.notFound(`No active token with id ${id}`);
  }

  /** The caller a bearer token stands for, or null when it is unknown, revoked or expired. */
  async callerForToken(token: string): Promise<Caller | null> {
    const row = await this.database.db
      .selectFrom('tokens')
      .select(['account_id', 'expires_at'])
      .where('token_hash', '=', hashToken(token))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row || (row.expires_at !== null && row.expires_at <= Date.now())) return null;
    return { accountId: row.account_id, anonymous: false };
  }
}
