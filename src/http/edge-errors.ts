// The errors the edge itself answers, declared once as each feature declares its own (decision 0037):
// what auth.ts, session-cookie.ts and rate-limits.ts throw, and the bodies of codes no feature throws
// (error-handler.ts answers them), each shown in the API document by error-schemas.ts.
import { BriefError, declareError } from '../errors.js';
import type { HttpErrorCode } from './error-status.js';

export const EDGE_ERRORS = {
  badToken: declareError('Unknown, revoked or expired token', () => BriefError.unauthorized('Invalid, expired or revoked token')),
  notBearer: declareError('Not a bearer token', () => BriefError.unauthorized('The Authorization header must be "Bearer <token>"')),
  sessionEnded: () => BriefError.unauthorized('The session has ended: sign in again'),
  crossSite: declareError('A cookie-authenticated request from another site', () =>
    BriefError.forbidden('Cross-site requests with the session cookie are refused: call from Brief’s own pages, or use a bearer token'),
  ),
  anonymousOff: declareError('No token while ANONYMOUS_SHORTEN is off', () =>
    BriefError.unauthorized('Anonymous shortening is turned off on this server: send a bearer token'),
  ),
};

/** The body of an error only the edge knows: refused before routing, an unknown route, a bug. */
export function httpError(code: HttpErrorCode, message: string): { message: string; code: HttpErrorCode } {
  return { message, code };
}

/** A bug: the body carries no internals. */
export const internalError = () => httpError('E_INTERNAL_ERROR', 'Internal server error');

/** A path under the API's prefixes that is no route. */
export const routeNotFound = (method: string, path: string) => httpError('E_ROUTE_NOT_FOUND', `Cannot ${method} ${path}`);
