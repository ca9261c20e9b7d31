import type { FastifyRequest } from 'fastify';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import type { AccountService } from '../accounts/account-service.js';
import type { Caller } from '../accounts/caller.js';
import type { Config } from '../config.js';
import { EDGE_ERRORS } from './edge-errors.js';
import { sessionCookieOf } from './session-cookie.js';

/**
 * Who a request's credentials stand for. The edge checks credentials but holds none of the services that
 * know them: the token service (tokens/) and the session service (people/) are features, a layer above this
 * one, so the composition root (app.ts) passes these in (decision 0036).
 */
export interface CallerLookup {
  /** The anonymous account's caller: a request with neither a bearer token nor a session cookie. */
  readonly anonymous: () => Promise<Caller>;
  /** The caller a bearer token stands for; null when it is unknown, revoked or expired. */
  readonly byToken: (token: string) => Promise<Caller | null>;
  /** The caller a session cookie stands for; null when the session is unknown or ended. */
  readonly bySession: (sessionId: string) => Promise<Caller | null>;
}

/**
 * Bearer token or session cookie → caller. Neither means the anonymous account; a header that
 * does not hold a valid, live token, or a cookie of a session that ended, is 401 — never a silent
 * fall-back. A bearer token wins over a cookie. A cookie-authenticated call passes the cross-site
 * check first (http/session-cookie.ts). Asked once per request: the check before the rate limits
 * (checkToken) and the route's own call share the answer.
 */
export function createAuthenticator(
  callers: CallerLookup,
  refuseCrossSite: (request: FastifyRequest) => void,
  /** BASE_URL's scheme decides the session cookie's name (http/session-cookie.ts). */
  config: Pick<Config, 'defaultDomain'>,
) {
  const answered = new WeakMap<FastifyRequest, Promise<Caller>>();
  const check = async (request: FastifyRequest): Promise<Caller> => {
    const header = request.headers.authorization;
    if (header === undefined) {
      const session = sessionCookieOf(config, request);
      if (session === undefined) return callers.anonymous();
      refuseCrossSite(request);
      const caller = session === '' ? null : await callers.bySession(session);
      if (!caller) throw EDGE_ERRORS.sessionEnded();
      return caller;
    }
    const match = /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(header);
    if (!match) throw EDGE_ERRORS.notBearer();
    const caller = await callers.byToken(match[1]!);
    if (!caller) throw EDGE_ERRORS.badToken();
    return caller;
  };
  return function authenticate(request: FastifyRequest): Promise<Caller> {
    let caller = answered.get(request);
    if (caller === undefined) {
      caller = check(request);
      answered.set(request, caller);
    }
    return caller;
  };
}

/**
 * The API's first hook: a request that sends a token or a session cookie is 401 unless it is live
 * (403 when a cookie comes cross-site), on every /v2 and /v3 call (those that need none too), before
 * any rate limit counts it, so a made-up token neither gets an answer nor a counter of its own.
 */
export function checkToken(authenticate: Authenticate, config: Pick<Config, 'defaultDomain'>) {
  return async function tokenCheck(request: FastifyRequest): Promise<void> {
    if (request.headers.authorization !== undefined || sessionCookieOf(config, request) !== undefined) await authenticate(request);
  };
}

export type Authenticate = ReturnType<typeof createAuthenticator>;

/** Who may make a v3 call: anyone (anonymous too), or an account (a bearer token or a session is needed). */
export type CallerKind = 'anyone' | 'account';

/**
 * The caller of a v3 call, in the workspace the request names (`workspaceId`: absent, empty
 * or `undefined` for the caller's own; any other workspace is not found).
 */
export function createWorkspaceCaller(authenticate: Authenticate, accounts: Pick<AccountService, 'checkWorkspace'>) {
  return async function callerIn(request: FastifyRequest, workspaceId: string | undefined, kind: CallerKind): Promise<Caller> {
    const caller = await authenticate(request);
    if (kind === 'account' && caller.anonymous) throw ACCOUNT_ERRORS.tokenRequired();
    accounts.checkWorkspace(caller, workspaceId);
    return caller;
  };
}

export type WorkspaceCaller = ReturnType<typeof createWorkspaceCaller>;
