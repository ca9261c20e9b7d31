import { BriefError } from '../errors.js';
import type { AccountRecord, AccountStore, TokenRecord } from '../storage/stores/accounts.js';
import { workspaceUuid } from './ids.js';
import { type Role, requireRole } from './roles.js';
import { knownScopes, parseScopes, type Scope, scopesHeld } from './scopes.js';
import { generateToken, hashToken } from './tokens.js';

export const ANONYMOUS_ACCOUNT = 'anonymous';
const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const DAY_MS = 86_400_000;
/** A token's last use is written at most once a minute: a request does not wait on a write for it. */
const LAST_USED_STEP_MS = 60_000;
const TOKEN_NAME_MAX = 100;
const TOUCHED_MAX = 10_000;

/** A token as its owner sees it (never its secret nor its hash). */
export interface TokenView {
  readonly id: number;
  readonly name: string | null;
  /** What it may do: every scope when it was made without any. */
  readonly scopes: readonly Scope[];
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
}

const toView = (record: TokenRecord): TokenView => ({
  id: record.id,
  name: record.label,
  scopes: scopesHeld(knownScopes(record.scopes)),
  createdAt: record.createdAt,
  lastUsedAt: record.lastUsedAt,
  expiresAt: record.expiresAt,
  revokedAt: record.revokedAt,
});

/** Who is making a request. */
export interface Caller {
  readonly accountId: number;
  readonly anonymous: boolean;
  /** The bearer token the caller presented (its row id: rate limits count per token); none for the anonymous account. */
  readonly tokenId?: number;
  /** What the caller's token may do (accounts/scopes.ts); absent without a token, where scopes do not apply. */
  readonly scopes?: readonly Scope[];
  /** The caller's role in the workspace (accounts/roles.ts); a workspace token is its owner. None: every right. */
  readonly role?: Role;
  /** The signed-in person, when a session cookie (not a token) authenticated the call. */
  readonly userId?: number;
}

export class AccountService {
  private anonymousId: number | undefined;
  /** When this process last wrote each token's last use. */
  private readonly touched = new Map<number, number>();

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

  /**
   * Makes a token for an account; returns the token itself, which is shown once and never stored.
   * `scopes`: what it may do (each checked before anything is made); none given, every scope.
   */
  async createToken(
    accountName: string,
    options: { label?: string; expiresInDays?: number; scopes?: readonly string[] } = {},
  ): Promise<{ token: string; record: TokenRecord }> {
    const scopes = parseScopes(options.scopes, 'scope');
    const account = await this.byName(accountName);
    if (account.name === ANONYMOUS_ACCOUNT) throw BriefError.invalid('account', 'anonymous', 'The anonymous account cannot have tokens');
    const expiresAt = options.expiresInDays === undefined ? null : Date.now() + options.expiresInDays * DAY_MS;
    return this.addToken(account.id, options.label ?? null, scopes, expiresAt);
  }

  /**
   * A token for the caller's own account, made through the API: a name (1-100 characters), its scopes
   * (none given: every scope), an optional expiry (epoch ms, checked by the caller to be in the future).
   */
  async issueToken(
    caller: Caller,
    input: { name: string; scopes?: readonly string[]; expiresAt?: number },
  ): Promise<{ token: string; view: TokenView }> {
    const name = input.name.trim();
    if (name === '') throw BriefError.invalid('name', 'required', 'The name field must not be empty');
    if (name.length > TOKEN_NAME_MAX) throw BriefError.invalid('name', 'maxLength', `The name field must be at most ${TOKEN_NAME_MAX} characters`);
    if (/[\p{Cc}]/u.test(name)) throw BriefError.invalid('name', 'regex', 'The name field must not contain control characters');
    const scopes = parseScopes(input.scopes);
    if (caller.anonymous) throw BriefError.unauthorized('This call needs a bearer token');
    requireRole(caller, 'tokens:write');
    const { token, record } = await this.addToken(caller.accountId, name, scopes, input.expiresAt ?? null);
    return { token, view: toView(record) };
  }

  private async addToken(accountId: number, label: string | null, scopes: Scope[] | null, expiresAt: number | null) {
    const token = generateToken();
    const record = await this.store.addToken({ accountId, hash: hashToken(token), label, expiresAt, scopes });
    return { token, record };
  }

  async listTokens(accountName: string): Promise<TokenView[]> {
    return (await this.store.tokensOf((await this.byName(accountName)).id)).map(toView);
  }

  /** The caller's account's tokens that are not revoked (expired ones too), oldest first. */
  async ownTokens(caller: Caller): Promise<TokenView[]> {
    if (caller.anonymous) return [];
    return (await this.store.tokensOf(caller.accountId)).filter((record) => record.revokedAt === null).map(toView);
  }

  /**
   * The token a request presents and its workspace, for the web app's header when it is signed in with a
   * token (a person's session has GET /auth/me). Another kind of caller is not a token: 401.
   */
  async presentedToken(caller: Caller): Promise<{ token: TokenView; workspace: { id: string; name: string } }> {
    if (caller.tokenId === undefined) throw BriefError.unauthorized('This call needs a bearer token');
    const [records, account] = await Promise.all([this.store.tokensOf(caller.accountId), this.store.byId(caller.accountId)]);
    const record = records.find((r) => r.id === caller.tokenId);
    if (!record || !account) throw BriefError.unauthorized('This call needs a bearer token');
    return { token: toView(record), workspace: { id: workspaceUuid(account.id), name: account.name } };
  }

  async revokeToken(id: number): Promise<void> {
    if (!(await this.store.revokeToken(id))) throw BriefError.notFound(`No active token with id ${id}`);
  }

  /** Revokes one of the caller's account's tokens; another account's, or one revoked already, is not found. */
  async revokeOwnToken(caller: Caller, id: number): Promise<void> {
    if (caller.anonymous) throw BriefError.notFound('Token not found');
    requireRole(caller, 'tokens:write');
    if (!(await this.store.revokeToken(id, caller.accountId))) throw BriefError.notFound('Token not found');
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
    const now = Date.now();
    if (!found || (found.expiresAt !== null && found.expiresAt <= now)) return null;
    this.noteUse(found.id, found.lastUsedAt, now);
    // A workspace token is the workspace's owner (roles), narrowed by its scopes.
    return { accountId: found.accountId, anonymous: false, tokenId: found.id, role: 'owner', scopes: scopesHeld(knownScopes(found.scopes)) };
  }

  /**
   * Records a token's use, to the minute: written only when the stored time is a minute old and this
   * process has not written it within the minute, and not waited for (a failed write loses one mark).
   */
  private noteUse(id: number, lastUsedAt: number | null, now: number): void {
    if (lastUsedAt !== null && now - lastUsedAt < LAST_USED_STEP_MS) return;
    const written = this.touched.get(id);
    if (written !== undefined && now - written < LAST_USED_STEP_MS) return;
    // One entry a token used here; a server with more live tokens than this starts the record afresh.
    if (this.touched.size >= TOUCHED_MAX) this.touched.clear();
    this.touched.set(id, now);
    this.store.touchToken(id, now).catch(() => this.touched.delete(id));
  }
}
