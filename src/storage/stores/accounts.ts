// The accounts' contract (decision 0004): accounts and their tokens (stored by hash).
export interface AccountRecord {
  readonly id: number;
  readonly name: string;
  readonly createdAt: number;
}

export interface TokenRecord {
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
}

/** What a request needs of a token, found by its hash. */
export interface LiveToken {
  readonly id: number;
  readonly accountId: number;
  readonly expiresAt: number | null;
  readonly scopes: readonly string[] | null;
  readonly lastUsedAt: number | null;
}

export interface AccountStore {
  /** A new account, or undefined when the name is taken. */
  create(name: string): Promise<AccountRecord | undefined>;
  byName(name: string): Promise<AccountRecord | undefined>;
  byId(id: number): Promise<AccountRecord | undefined>;
  list(): Promise<AccountRecord[]>;
  /** Stores a token by its hash (the token itself is never stored). */
  addToken(token: {
    accountId: number;
    hash: string;
    label: string | null;
    expiresAt: number | null;
    scopes: readonly string[] | null;
  }): Promise<TokenRecord>;
  tokensOf(accountId: number): Promise<TokenRecord[]>;
  /** Revokes a live token, of the given account when one is named; false when there is none. */
  revokeToken(id: number, accountId?: number): Promise<boolean>;
  /** The owner, expiry and scopes of an unrevoked token, by its hash. */
  tokenByHash(hash: string): Promise<LiveToken | undefined>;
  /** Records that a token was presented at `at`. */
  touchToken(id: number, at: number): Promise<void>;
}
