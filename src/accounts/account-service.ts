import { BriefError } from '../errors.js';
import type { AccountRecord, AccountStore, TokenRecord } from '../storage/stores/accounts.js';
import { workspaceUuid } from './ids.js';
import type { Role } from './roles.js';
import { generateToken, hashToken } from './tokens.js';

export const ANONYMOUS_ACCOUNT = 'anonymous';
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const DAY_MS = 86_400_000;

/** Who is making a request. */
export interface Caller {
  readonly accountId: number;
  readonly anonymous: boolean;
  /** The bearer token the caller presented (its row id: rate limits count per token); none for the anonymous account. */
  readonly tokenId?: number;
  /** The caller's role in the workspace (accounts/roles.ts); a workspace token is its owner. None: every right. */
  readonly role?: Role;
  /** The signed-in person, when a session cookie (not a token) authenticated the call. */
  readonly userId?: number;
}

export class AccountService {
  private anonymousId: number | undefined;

  constructor(private readonly store: AccountStore) {}

  async anonymousCaller(): Promise<Caller> {
    this.anonymousId ??= (await this.byName(ANONYMOUS_ACCOUNT)).id;
    return { accountId: this.anonymousId, anonymous: true };
  }

  async create(name: string): Promise<AccountRecord> {
    if (!ACCOUNT_NAME.test(name)) {
      throw BriefError.invalid('name', 'regex', 'Account names are 1-64 letters, digits, "_", ".", "@" or "-", starting with a letter or digit');
    }
    const account = await this.store.create(name);
    if (!account) throw BriefError.invalid('name', 'unique', `Account "${name}" already exists`);
    return account;
  }

  async byName(name: string): Promise<AccountRecord> {
    const account = await this.store.byName(name);
    if (!account) throw BriefError.notFound(`No account named "${name}"`);
    return account;
  }

  list(): Promise<AccountRecord[]> {
    return this.store.list();
  }

  /** Makes a token for an account; returns the token itself, which is shown once and never stored. */
  async createToken(accountName: string, options: { label?: string; expiresInDays?: number } = {}): Promise<{ token: string; record: TokenRecord }> {
    const account = await this.byName(accountName);
    if (account.name === ANONYMOUS_ACCOUNT) throw BriefError.invalid('account', 'anonymous', 'The anonymous account cannot have tokens');
    const token = generateToken();
    const record = await this.store.addToken({
      accountId: account.id,
      hash: hashToken(token),
      label: options.label ?? null,
      expiresAt: options.expiresInDays === undefined ? null : Date.now() + options.expiresInDays * DAY_MS,
    });
    return { token, record };
  }

  async listTokens(accountName: string): Promise<TokenRecord[]> {
    return this.store.tokensOf((await this.byName(accountName)).id);
  }

  async revokeToken(id: number): Promise<void> {
    if (!(await this.store.revokeToken(id))) throw BriefError.notFound(`No active token with id ${id}`);
  }

  /**
   * v3's `workspaceId`: absent, empty or the string `undefined` (one client sends it) mean
   * the caller's own workspace; any other value must be it, else it is not found, like any
   * other account's resource.
   */
  checkWorkspace(caller: Caller, workspaceId: string | undefined): void {
    if (workspaceId === undefined || workspaceId === '' || workspaceId === 'undefined') return;
    if (caller.anonymous || workspaceId !== workspaceUuid(caller.accountId)) throw BriefError.notFound('Workspace not found');
  }

  /** The caller a bearer token stands for, or null when it is unknown, revoked or expired. */
  async callerForToken(token: string): Promise<Caller | null> {
    const found = await this.store.tokenByHash(hashToken(token));
    if (!found || (found.expiresAt !== null && found.expiresAt <= Date.now())) return null;
    return { accountId: found.accountId, anonymous: false, tokenId: found.id, role: 'owner' };
  }
}
