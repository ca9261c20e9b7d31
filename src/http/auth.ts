import type { FastifyRequest } from 'fastify';
import type { AccountService, Caller } from '../accounts/account-service.js';
import { BriefError } from '../errors.js';

/**
 * Bearer token → caller. No Authorization header means the anonymous account; a
 * header that does not hold a valid, live token is 401 — never a silent fall-back.
 */
export function createAuthenticator(accounts: AccountService) {
  return async function authenticate(request: FastifyRequest): Promise<Caller> {
    const header = request.headers.authorization;
    if (header === undefined) return accounts.anonymousCaller();
    const match = /^Bearer +([\x21-\x7e]{1,512})\s*$/i.exec(header);
    if (!match) throw BriefError.unauthorized('The Authorization header must be "Bearer <token>"');
    const caller = await accounts.callerForToken(match[1]!);
    if (!caller) throw BriefError.unauthorized('Invalid, expired or revoked token');
    return caller;
  };
}

export type Authenticate = ReturnType<typeof createAuthenticator>;

/** Who may make a v3 call: anyone (anonymous too), or an account (a bearer token is needed). */
export type CallerKind = 'anyone' | 'account';

/**
 * The caller of a v3 call, in the workspace the request names (`workspaceId`: absent, empty
 * or `undefined` for the caller's own; any other workspace is not found).
 */
export function createWorkspaceCaller(authenticate: Authenticate, accounts: AccountService) {
  return async function callerIn(request: FastifyRequest, workspaceId: string | undefined, kind: CallerKind): Promise<Caller> {
    const caller = await authenticate(request);
    if (kind === 'account' && caller.anonymous) throw BriefError.unauthorized('This call needs a bearer token');
    accounts.checkWorkspace(caller, workspaceId);
    return caller;
  };
}

export type WorkspaceCaller = ReturnType<typeof createWorkspaceCaller>;
