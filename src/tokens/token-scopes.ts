// The scopes a token is made with and holds (decision 0029): those asked for, checked; none asked for is
// every scope (stored as no list at all). A scope may also need a role: `members:read` (people's emails)
// is held by admin and owner tokens only, so a token that acts as a member or viewer never holds it,
// whatever it was made with. The scopes' names, and what a call needs, are accounts/scopes.ts.
import { atLeast, type Role } from '../accounts/roles.js';
import { isScope, SCOPES, type Scope } from '../accounts/scopes.js';
import { TOKEN_ERRORS } from './token-errors.js';

/**
 * The scopes a person asked for, checked: each must be known (else a validation error naming it
 * and nothing is made), duplicates are dropped and the order is SCOPES'. `undefined` (none asked
 * for) means every scope, stored as null.
 */
export function parseScopes(asked: readonly string[] | undefined, field = 'scopes'): Scope[] | null {
  if (asked === undefined) return null;
  const unknown = asked.filter((scope) => !isScope(scope));
  if (unknown.length > 0) throw TOKEN_ERRORS.unknownScope(field, unknown[0]!);
  if (asked.length === 0) throw TOKEN_ERRORS.noScope(field);
  return SCOPES.filter((scope) => asked.includes(scope));
}

/** The least role that may hold a scope; a scope not named here, any role. */
const LEAST_ROLE: Partial<Readonly<Record<Scope, Role>>> = { 'members:read': 'admin' };

/** Whether a token acting with `role` may hold a scope. */
export const roleMayHold = (role: Role, scope: Scope): boolean => atLeast(role, LEAST_ROLE[scope] ?? 'viewer');

/**
 * The scopes a token holds: null (made without any) is every scope; with the role it acts with, only
 * those that role may hold (a token whose maker was demoted loses `members:read` with the role).
 */
export const scopesHeld = (stored: readonly Scope[] | null | undefined, role: Role = 'owner'): readonly Scope[] => {
  const scopes = stored ?? SCOPES;
  return scopes.every((scope) => roleMayHold(role, scope)) ? scopes : scopes.filter((scope) => roleMayHold(role, scope));
};

/**
 * Refuses (422, naming the field) a scope asked for a token whose role may not hold it, such as
 * `members:read` for a member: the token would be made without what was asked.
 */
export function checkScopesForRole(scopes: readonly Scope[] | null, role: Role, field = 'scopes'): void {
  const beyond = scopes?.find((scope) => !roleMayHold(role, scope));
  if (beyond !== undefined) throw TOKEN_ERRORS.scopeAboveRole(field, role, beyond, LEAST_ROLE[beyond] ?? 'viewer');
}

/** Scopes as stored (names only), as this version knows them: a name it does not know is left out; null stays every scope. */
export const knownScopes = (stored: readonly string[] | null): Scope[] | null => (stored === null ? null : stored.filter(isScope));
