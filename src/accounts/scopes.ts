// What a token may do. A token holds one or more scopes; one made without any holds every scope
// (stored as no list at all, so it keeps full rights as scopes are added). The anonymous account
// has no token and is not limited by scopes: what it may do is what each call allows anyone.
// Here: the scopes' names and what a call needs of its caller, which the edge checks on every route
// (http/route-scopes.ts); what a token is made with and holds is the token feature's (tokens/token-scopes.ts).
// No Node modules here: the web app's typecheck reads this file.
import { BriefError, declareError } from '../errors.js';

export const SCOPES = ['links:read', 'links:write', 'analytics:read', 'domains:write', 'members:read', 'webhooks:write'] as const;

export type Scope = (typeof SCOPES)[number];

/** What a route needs: one scope, every scope (managing tokens), or none (a call open to anyone, such as QR codes). */
export type RouteScope = Scope | 'every' | 'none';

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scopes a caller lacks for what a route needs; empty when it may go on. `held` undefined: no token, no limit. */
export function missingScopes(held: readonly Scope[] | undefined, needed: RouteScope): Scope[] {
  if (held === undefined || needed === 'none') return [];
  const wanted: readonly Scope[] = needed === 'every' ? SCOPES : [needed];
  return wanted.filter((scope) => !held.includes(scope));
}

/** The error a token used beyond its scopes answers, 403 naming what it lacks: declared once (decision 0037). */
export const forbiddenFor = declareError(
  'A token without the scope the call needs',
  (missing: readonly Scope[], needed: RouteScope): BriefError => {
    const names = missing.join(', ');
    const what = missing.length === 1 ? `the scope ${names}` : `the scopes ${names}`;
    return BriefError.forbidden(
      needed === 'every' ? `This call needs a token with every scope; this token lacks ${what}` : `This call needs a token with ${what}`,
    );
  },
  ['links:write'],
  'links:write',
);
