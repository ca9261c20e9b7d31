// What a token may do. A token holds one or more scopes; one made without any holds every scope
// (stored as no list at all, so it keeps full rights as scopes are added). The anonymous account
// has no token and is not limited by scopes: what it may do is what each call allows anyone.
// A scope may also need a role: `members:read` (people's emails) is held by admin and owner tokens
// only, so a token that acts as a member or viewer never holds it, whatever it was made with.
// No Node modules here: the web app's typecheck reads this file.
import { BriefError } from '../errors.js';
import { atLeast, type Role } from './roles.js';

export const SCOPES = ['links:read', 'links:write', 'analytics:read', 'domains:write', 'members:read'] as const;

export type Scope = (typeof SCOPES)[number];

/** What a route needs: one scope, every scope (managing tokens), or none (a call open to anyone, such as QR codes). */
export type RouteScope = Scope | 'every' | 'none';

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * The scopes a person asked for, checked: each must be known (else a validation error naming it
 * and nothing is made), duplicates are dropped and the order is SCOPES'. `undefined` (none asked
 * for) means every scope, stored as null.
 */
export function parseScopes(asked: readonly string[] | undefined, field = 'scopes'): Scope[] | null {
  if (asked === undefined) return null;
  const unknown = asked.filter((scope) => !isScope(scope));
  if (unknown.length > 0) {
    throw BriefError.invalid(field, 'enum', `Unknown scope "${unknown[0]}": the scopes are ${SCOPES.join(', ')}`);
  }
  if (asked.length === 0) throw BriefError.invalid(field, 'minItems', 'Choose at least one scope (a token made without any has them all)');
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
  if (beyond !== undefined) {
    throw BriefError.invalid(field, 'role', `A token that acts as ${role} cannot hold ${beyond}: it needs the ${LEAST_ROLE[beyond]} role or above`);
  }
}

/** The scopes a caller lacks for what a route needs; empty when it may go on. `held` undefined: no token, no limit. */
export function missingScopes(held: readonly Scope[] | undefined, needed: RouteScope): Scope[] {
  if (held === undefined || needed === 'none') return [];
  const wanted: readonly Scope[] = needed === 'every' ? SCOPES : [needed];
  return wanted.filter((scope) => !held.includes(scope));
}

/** The error a token used beyond its scopes answers: 403 naming what it lacks. */
export function forbiddenFor(missing: readonly Scope[], needed: RouteScope): BriefError {
  const names = missing.join(', ');
  const what = missing.length === 1 ? `the scope ${names}` : `the scopes ${names}`;
  return BriefError.forbidden(
    needed === 'every' ? `This call needs a token with every scope; this token lacks ${what}` : `This call needs a token with ${what}`,
  );
}

/** Scopes as stored (names only), as this version knows them: a name it does not know is left out; null stays every scope. */
export const knownScopes = (stored: readonly string[] | null): Scope[] | null => (stored === null ? null : stored.filter(isScope));
