// What the /auth routes share (an HTTP edge, as routes files are): who a signed-in person's call is, and how the API document says a call
// takes a session cookie.
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../accounts/account-service.js';
import { BriefError } from '../errors.js';
import type { Authenticate } from '../http/auth.js';
import { SESSION_COOKIE } from '../http/session-cookie.js';

/** The API document's word on a call that takes a session cookie as well as a token. */
export const COOKIE_AUTH = `A session cookie (\`${SESSION_COOKIE}\`) from \`POST /auth/sign-in\`, or a bearer token.`;

/**
 * The caller of a call only a signed-in person makes (a session, not a token): 401 otherwise. The cookie's
 * cross-site check is authenticate's.
 */
export function signedInCaller(authenticate: Authenticate) {
  return async (request: FastifyRequest): Promise<Caller & { readonly userId: number }> => {
    const caller = await authenticate(request);
    if (caller.userId === undefined) throw BriefError.unauthorized('Not signed in');
    return caller as Caller & { readonly userId: number };
  };
}
