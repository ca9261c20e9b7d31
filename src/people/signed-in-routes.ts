// What the /auth routes share (an HTTP edge, as routes files are): who a signed-in person's call is, how the API
// document says a call takes a session cookie, and the options every /auth route is declared with.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../accounts/caller.js';
import type { Config } from '../config.js';
import { type ErrorExample, fieldExample, tooShort } from '../errors.js';
import { documentedOnly, NO_AUTH, REQUIRED_AUTH } from '../http/api-docs.js';
import type { Authenticate } from '../http/auth.js';
import { type ErrorStatus, errorResponse, errorResponses } from '../http/error-schemas.js';
import type { LimitPolicy } from '../http/rate-limits.js';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, sessionCookie } from '../http/session-cookie.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import type { SessionService } from './session-service.js';
import { PASSWORD_MIN_LENGTH } from './user-passwords.js';

/** The API document's tag of every /auth call. */
export const AUTH_TAGS = ['sign-in and team'];

/** The API document's word on a call that takes a session cookie as well as a token. */
export const COOKIE_AUTH = `A session cookie (\`${SESSION_COOKIE}\`, \`${SECURE_SESSION_COOKIE}\` under https) from \`POST /auth/sign-in\`, or a bearer token.`;

/**
 * The caller of a call only a signed-in person makes (a session, not a token): 401 otherwise. The cookie's
 * cross-site check is authenticate's.
 */
export function signedInCaller(authenticate: Authenticate) {
  return async (request: FastifyRequest): Promise<Caller & { readonly userId: number }> => {
    const caller = await authenticate(request);
    if (caller.userId === undefined) throw PEOPLE_ERRORS.notSignedIn();
    return caller as Caller & { readonly userId: number };
  };
}

/**
 * How a call that signs someone in answers (a password, a passkey, an invitation accepted): it sets the new
 * session's cookie, and says who is signed in now as `GET /auth/me` does.
 */
export function signInAnswer(config: Pick<Config, 'defaultDomain' | 'sessionMaxMs'>, sessions: Pick<SessionService, 'whoIs'>) {
  return (request: FastifyRequest, reply: FastifyReply, session: { sessionId: string; userId: number; accountId: number }) => {
    reply.header('set-cookie', sessionCookie(config, request, session.sessionId));
    return sessions.whoIs({ accountId: session.accountId, anonymous: false, userId: session.userId });
  };
}

/**
 * What a call given a one-time link's secret (an invitation, a password reset) answers when the secret is
 * unknown (404), or the link used or expired, or the new password (`passwordField`) too short (422).
 */
export function oneTimeLinkErrors(
  errors: { unknown: ErrorExample; used: ErrorExample; expired: ErrorExample; usedUp?: ErrorExample },
  passwordField: string,
) {
  const password = fieldExample('A password too short', tooShort(passwordField, PASSWORD_MIN_LENGTH));
  const { unknown, used, expired, usedUp } = errors;
  return {
    404: errorResponse(404, { examples: { unknown } }),
    422: errorResponse(422, { examples: usedUp ? { used, expired, password, usedUp } : { used, expired, password } }),
  };
}

/** What a call given an invitation's secret answers when it is unknown (404), or used or expired (422). */
export const invitationErrors = () =>
  oneTimeLinkErrors(
    {
      unknown: PEOPLE_ERRORS.noInvitation,
      used: PEOPLE_ERRORS.invitationUsed,
      expired: PEOPLE_ERRORS.invitationExpired,
      usedUp: PEOPLE_ERRORS.invitationUsedUp,
    },
    'password',
  );

/**
 * An /auth route as its file declares it: its rate limit (none: only the API-wide ones), its schema's
 * summary, description, params and body, and its answers beyond the error statuses every such call has.
 */
export interface AuthRoute {
  readonly limit?: LimitPolicy;
  readonly summary: string;
  readonly description: string;
  readonly deprecated?: boolean;
  readonly params?: unknown;
  readonly body?: unknown;
  readonly response: object;
}

/**
 * The options of an /auth call made with a session cookie or a token (REQUIRED_AUTH in the document): 400, 401,
 * 500 and 503 documented besides the route's own answers.
 */
export function signedInRoute<R extends AuthRoute>(route: R) {
  return authRouteOptions(route, REQUIRED_AUTH, errorResponses(400, 401, 500, 503));
}

/** The options of an /auth call anyone makes, signed in or not (NO_AUTH): 400, 500 and 503 besides its own answers. */
export function openRoute<R extends AuthRoute>(route: R) {
  return authRouteOptions(route, NO_AUTH, errorResponses(400, 500, 503));
}

function authRouteOptions<R extends AuthRoute>(
  { limit, response, ...schema }: R,
  security: typeof NO_AUTH,
  errors: Partial<Record<ErrorStatus, object>>,
) {
  return {
    serializerCompiler: documentedOnly,
    ...(limit && { config: { limit } }),
    schema: { ...schema, tags: AUTH_TAGS, security, response: { ...errors, ...response } },
  };
}
