// The accounts' contract (decision 0004): accounts and their tokens (stored by hash).
import type { RoleName } from '../tables.js';

export interface AccountRecord {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
}

/** Who made a token, and what rights they have now: what caps the token's role at every use. */
export interface TokenMaker {
  /** The maker's user id; null: the operator (the CLI), or a token made before makers were recorded. */
  readonly createdBy: number | null;
  /** The maker's role in the token's workspace now; null for the operator, or a maker who is no member any more. */
  readonly makerRole: RoleName | null;
}

export interface TokenRecord extends TokenMaker {
  readonly id: number;
  readonly accountId: number;
  readonly label: string | null;
  readonly createdAt: number;
  readonly expiresAt: number | null;
  readonly revokedAt: number | null;
  /** What the token may do (accounts/scopes.ts checks the names); null: every scope (decision 0029). */
  readonly scopes: readonly string[] | null;
  /** When it was last presented, to the minute; null: never. */
  readonly lastUsedAt: number | null;
  /** The role it was made to act with (before its maker's role now caps it). */
  readonly role: RoleName;
  /** The maker's email; null for the operator, or a maker removed since. */
  readonly makerEmail: string | null;
}

/** What a request needs of a token, found by its hash (with its maker's role now, in the same read). */
export interface LiveToken extends TokenMaker {
  readonly id: number;
  readonly accountId: number;
  readonly expiresAt: number | null;
  readonly scopes: readonly string[] | null;
  readonly lastUsedAt: number | null;
  readonly role: RoleName;
}

/** A token as it is stored: its hash (never the token), who made it and the role it acts with. */
export interface NewToken {
  readonly accountId: number;
  readonly hash: string;
  readonly label: string | null;
  readonly expiresAt: number | null;
  readonly scopes: readonly string[] | null;
  /** The maker's user id; null: the operator. */
  readonly createdBy: number | null;
  readonly role: RoleName;
}

export interface AccountStore {
  /** A new account, or undefined when the name is taken. */
  create(name: string): Promise<AccountRecord | undefined>;
  byName(name: string): Promise<AccountRecord | undefined>;
  byId(id: number): Promise<AccountRecord | undefined>;
  list(): Promise<AccountRecord[]>;
  /**
   * Stores a token by its hash (the token itself is never stored). A token made by a person is made only
   * while they are a member of its workspace, checked in the same write (undefined otherwise), so one made
   * as they are removed is not left behind their removal's revocation.
   */
  addToken(token: NewToken): Promise<TokenRecord | undefined>;
  /** An account's tokens (revoked ones too), oldest first, with their makers. */
  tokensOf(accountId: number): Promise<TokenRecord[]>;
  /** Revokes a live token, of the given account when one is named; false when there is none. */
  revokeToken(id: number, accountId?: number): Promise<boolean>;
  /** The owner, expiry, scopes, role and maker's role now of an unrevoked token, by its hash: one read. */
  tokenByHash(hash: string): Promise<LiveToken | undefined>;
  /** Records that a token was presented at `at`. */
  touchToken(id: number, at: number): Promise<void>;
}
