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
}

export interface AccountStore {
  /** A new account, or undefined when the name is taken. */
  create(name: string): Promise<AccountRecord | undefined>;
  byName(name: string): Promise<AccountRecord | undefined>;
  list(): Promise<AccountRecord[]>;
  /** Stores a token by its hash (the token itself is never stored). */
  addToken(token: { accountId: number; hash: string; label: string | null; expiresAt: number | null }): Promise<TokenRecord>;
  tokensOf(accountId: number): Promise<TokenRecord[]>;
  /** Revokes a live token; false when there is none with this id. */
  revokeToken(id: number): Promise<boolean>;
  /** The owner and expiry of an unrevoked token, by its hash. */
  tokenByHash(hash: string): Promise<{ id: number; accountId: number; expiresAt: number | null } | undefined>;
}
