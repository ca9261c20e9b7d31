// API tokens (decisions 0028 and 0029): made by the operator (`brief token`) or through the API, listed,
// revoked, and turned back into a caller at every request that presents one. A token is stored by its hash
// only; it acts with the role it was made with, capped by its maker's role now, narrowed by its scopes.
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { type AccountService, ANONYMOUS_ACCOUNT } from '../accounts/account-service.js';
import { type Caller, makerOf, mayReadEmails } from '../accounts/caller.js';
import { workspaceUuid } from '../accounts/ids.js';
import { atLeast, lowerRole, parseRole, type Role, requireRole } from '../accounts/roles.js';
import type { Scope } from '../accounts/scopes.js';
import { BriefError, overLimit } from '../errors.js';
import type { AccountStore, TokenMaker, TokenRecord } from '../storage/stores/accounts.js';
import { TOKEN_ERRORS } from './token-errors.js';
import { checkScopesForRole, knownScopes, parseScopes, scopesHeld } from './token-scopes.js';
import { generateToken, hashToken } from './token-secrets.js';

const DAY_MS = 86_400_000;
/** A token's last use is written at most once a minute: a request does not wait on a write for it. */
const LAST_USED_STEP_MS = 60_000;
const TOKEN_NAME_MAX = 100;
const TOUCHED_MAX = 10_000;

/** What tokens are kept in: the accounts' store (a token belongs to its account), and the account's name for the web app's header. */
export type TokenStore = Pick<AccountStore, 'addToken' | 'tokensOf' | 'revokeToken' | 'tokenByHash' | 'touchToken' | 'byId'>;

/** A token as its owner sees it (never its secret nor its hash). */
export interface TokenView {
  readonly id: number;
  readonly name: string | null;
  /** What it may do: every scope when it was made without any (those its role may hold). */
  readonly scopes: readonly Scope[];
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  /** The role it acts with now: the one it was made with, capped by its maker's role now. */
  readonly role: Role;
  /**
   * Who made it; null: the operator (`brief token create`), or made before makers were recorded. The
   * email is left out for a caller that may not read people's emails (a token without members:read), and
   * is null once the person is gone.
   */
  readonly createdBy: { readonly id: number; readonly email?: string | null } | null;
}

/**
 * The role a token acts with: the one it was made with, capped by its maker's role in the workspace now.
 * The operator's tokens (no maker) keep theirs; a token whose maker is no member any more has none (null).
 */
export function actingRole(token: TokenMaker & { readonly role: Role }): Role | null {
  if (token.createdBy === null) return token.role;
  return token.makerRole === null ? null : lowerRole(token.role, token.makerRole);
}

const toView = (record: TokenRecord, showEmails: boolean): TokenView => {
  // A token whose maker left is revoked with their removal; until then it says the role it was made with.
  const role = actingRole(record) ?? record.role;
  return {
    id: record.id,
    name: record.label,
    scopes: scopesHeld(knownScopes(record.scopes), role),
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    expiresAt: record.expiresAt,
    revokedAt: record.revokedAt,
    role,
    createdBy: record.createdBy === null ? null : { id: record.createdBy, ...(showEmails && { email: record.makerEmail }) },
  };
};

export class TokenService {
  /** When this process last wrote each token's last use. */
  private readonly touched = new Map<number, number>();

  constructor(
    private readonly store: TokenStore,
    private readonly accounts: Pick<AccountService, 'byName'>,
  ) {}

  /**
   * Makes a token for an account, as the operator (`brief token create`); returns the token itself, which is
   * shown once and never stored. `scopes`: what it may do (each checked before anything is made); none
   * given, every scope. `role`: the role it acts with (default owner: the operator may make any).
   */
  async createToken(
    accountName: string,
    options: { label?: string; expiresInDays?: number; scopes?: readonly string[]; role?: string } = {},
  ): Promise<{ token: string; record: TokenRecord }> {
    const scopes = parseScopes(options.scopes, 'scope');
    const role = options.role === undefined ? 'owner' : parseRole(options.role);
    checkScopesForRole(scopes, role, 'scope');
    const account = await this.accounts.byName(accountName);
    if (account.name === ANONYMOUS_ACCOUNT) throw TOKEN_ERRORS.anonymousAccount();
    const expiresAt = options.expiresInDays === undefined ? null : Date.now() + options.expiresInDays * DAY_MS;
    const made = await this.addToken({ accountId: account.id, label: options.label ?? null, scopes, expiresAt, createdBy: null, role });
    if (!made) throw new Error('a token made by the operator needs no member');
    return made;
  }

  /**
   * A token for the caller's own account, made through the API: a name (1-100 characters), its scopes
   * (none given: every scope), an optional expiry (epoch ms, checked by the caller to be in the future), and
   * the role it acts with: the caller's own, or a lower one asked for (a higher one is 403). Its maker is the
   * signed-in person, or the maker of the token that makes it, so it never outranks them; a token made by a
   * token is capped by that token's role as well.
   */
  async issueToken(
    caller: Caller,
    input: { name: string; scopes?: readonly string[]; expiresAt?: number; role?: string },
  ): Promise<{ token: string; view: TokenView }> {
    const name = input.name.trim();
    if (name === '') throw TOKEN_ERRORS.emptyName();
    if (name.length > TOKEN_NAME_MAX) throw BriefError.field(overLimit('name', TOKEN_NAME_MAX));
    if (/[\p{Cc}]/u.test(name)) throw TOKEN_ERRORS.controlInName();
    const scopes = parseScopes(input.scopes);
    const asked = input.role === undefined ? undefined : parseRole(input.role);
    if (caller.anonymous) throw ACCOUNT_ERRORS.tokenRequired();
    requireRole(caller, 'tokens:write');
    const callerRole = caller.role ?? 'owner';
    if (asked !== undefined && !atLeast(callerRole, asked)) {
      throw TOKEN_ERRORS.aboveMaker(callerRole);
    }
    const role = asked ?? callerRole;
    checkScopesForRole(scopes, role);
    const made = await this.addToken({
      accountId: caller.accountId,
      label: name,
      scopes,
      expiresAt: input.expiresAt ?? null,
      createdBy: makerOf(caller),
      role,
    });
    // Its maker was removed from the workspace while this call ran.
    if (!made) throw TOKEN_ERRORS.makerGone();
    return { token: made.token, view: toView(made.record, mayReadEmails(caller)) };
  }

  private async addToken(token: {
    accountId: number;
    label: string | null;
    scopes: Scope[] | null;
    expiresAt: number | null;
    createdBy: number | null;
    role: Role;
  }): Promise<{ token: string; record: TokenRecord } | undefined> {
    const secret = generateToken();
    const record = await this.store.addToken({ ...token, hash: hashToken(secret) });
    return record && { token: secret, record };
  }

  /** An account's tokens, revoked ones too, with their makers' emails (`brief token list`: the operator sees all). */
  async listTokens(accountName: string): Promise<TokenView[]> {
    return (await this.store.tokensOf((await this.accounts.byName(accountName)).id)).map((record) => toView(record, true));
  }

  /**
   * The caller's account's tokens that are not revoked (expired ones too), oldest first, with who made each
   * and the role each acts with. A viewer does not list them (403).
   */
  async ownTokens(caller: Caller): Promise<TokenView[]> {
    if (caller.anonymous) return [];
    requireRole(caller, 'tokens:read');
    const showEmails = mayReadEmails(caller);
    return (await this.store.tokensOf(caller.accountId)).filter((record) => record.revokedAt === null).map((record) => toView(record, showEmails));
  }

  /**
   * The token a request presents and its workspace, for the web app's header when it is signed in with a
   * token (a person's session has GET /auth/me). Another kind of caller is not a token: 401.
   */
  async presentedToken(caller: Caller): Promise<{ token: TokenView; workspace: { id: string; name: string } }> {
    if (caller.tokenId === undefined) throw ACCOUNT_ERRORS.tokenRequired();
    const [records, account] = await Promise.all([this.store.tokensOf(caller.accountId), this.store.byId(caller.accountId)]);
    const record = records.find((r) => r.id === caller.tokenId);
    if (!record || !account) throw ACCOUNT_ERRORS.tokenRequired();
    return { token: toView(record, mayReadEmails(caller)), workspace: { id: workspaceUuid(account.id), name: account.name } };
  }

  async revokeToken(id: number): Promise<void> {
    if (!(await this.store.revokeToken(id))) throw TOKEN_ERRORS.noActiveToken(id);
  }

  /** Revokes one of the caller's account's tokens; another account's, or one revoked already, is not found. */
  async revokeOwnToken(caller: Caller, id: number): Promise<void> {
    if (caller.anonymous) throw TOKEN_ERRORS.notFound();
    requireRole(caller, 'tokens:write');
    if (!(await this.store.revokeToken(id, caller.accountId))) throw TOKEN_ERRORS.notFound();
  }

  /**
   * The caller a bearer token stands for, or null when it is unknown, revoked or expired, or its maker is no
   * member of its workspace any more. It acts with the role it was made with, capped by its maker's role now
   * (read with the token, in one query), narrowed by its scopes.
   */
  async callerForToken(token: string): Promise<Caller | null> {
    const found = await this.store.tokenByHash(hashToken(token));
    const now = Date.now();
    if (!found || (found.expiresAt !== null && found.expiresAt <= now)) return null;
    const role = actingRole(found);
    if (role === null) return null;
    this.noteUse(found.id, found.lastUsedAt, now);
    return {
      accountId: found.accountId,
      anonymous: false,
      tokenId: found.id,
      role,
      maker: found.createdBy,
      scopes: scopesHeld(knownScopes(found.scopes), role),
    };
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
