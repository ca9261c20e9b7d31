// Who is making a request: what the edge (http/auth.ts) makes of a token or a session, and what every feature
// checks a call against (its workspace, its role, its token's scopes).
import type { Role } from './roles.js';
import { missingScopes, type Scope } from './scopes.js';

/** Who is making a request. */
export interface Caller {
  readonly accountId: number;
  readonly anonymous: boolean;
  /** The bearer token the caller presented (its row id: rate limits count per token); none for the anonymous account. */
  readonly tokenId?: number;
  /** What the caller's token may do (accounts/scopes.ts); absent without a token, where scopes do not apply. */
  readonly scopes?: readonly Scope[];
  /**
   * The caller's role in the workspace (accounts/roles.ts); a token's is the role it was made with, capped by its
   * maker's role now. None: every right (the server's own callers).
   */
  readonly role?: Role;
  /** The signed-in person, when a session cookie (not a token) authenticated the call. */
  readonly userId?: number;
  /** The person who made the presented token, whose rights cap it; null: the operator. Absent without a token. */
  readonly maker?: number | null;
}

/** Whether a caller may read people's emails: a person (sessions have no scopes), or a token holding members:read. */
export const mayReadEmails = (caller: Pick<Caller, 'scopes'>): boolean => missingScopes(caller.scopes, 'members:read').length === 0;

/** Who a caller acts for when it makes something (a token, an invitation): the person, a token's maker, or null (the operator). */
export const makerOf = (caller: Caller): number | null => caller.userId ?? caller.maker ?? null;
