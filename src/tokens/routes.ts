import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { Authenticate, WorkspaceCaller } from '../http/auth.js';
import { errorResponse, errorResponses, tokenRequiredResponse, workspaceNotFoundResponse } from '../http/error-schemas.js';
import { EXPIRY_ERRORS, parseExpiry } from '../links/link-fields.js';
import { type ApiToken, ApiTokenList, NewToken, NewTokenBody, PresentedToken, Revoked, TokenPath, TokensQuery } from './schemas.js';
import { TOKEN_ERRORS } from './token-errors.js';
import type { TokenService, TokenView } from './token-service.js';

const tags = ['tokens'];
const errors = {
  ...errorResponses(400, 500, 503),
  401: tokenRequiredResponse(),
  404: workspaceNotFoundResponse(),
};

/** What a token asked for may get wrong. */
const TOKEN_EXAMPLES = {
  scope: TOKEN_ERRORS.unknownScope,
  noScope: TOKEN_ERRORS.noScope,
  name: TOKEN_ERRORS.emptyName,
  expiry: EXPIRY_ERRORS.past.exampleWith(['expiresAt']),
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toApiToken = (view: TokenView): ApiToken => ({
  id: view.id,
  name: view.name,
  scopes: [...view.scopes],
  createdAt: new Date(view.createdAt).toISOString(),
  lastUsedAt: iso(view.lastUsedAt),
  expiresAt: iso(view.expiresAt),
  role: view.role,
  createdBy: view.createdBy,
});

/**
 * The workspace's API tokens, for the web app's Settings, under /v3: list, make (the secret answered
 * once) and revoke. Managing tokens needs a token with every scope (a narrower one could otherwise
 * make itself a wider one; members:read among them, as the list names each token's maker); another
 * workspace's token is not found. A token acts with at most its maker's role (tokens/token-service.ts).
 */
export function tokenRoutes(tokens: TokenService, callerIn: WorkspaceCaller, authenticate: Authenticate) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = { serializerCompiler: documentedOnly, config: { limit: 'read', scope: 'every' } } as const;

    app.get(
      '/tokens',
      {
        ...options,
        schema: {
          summary: "The workspace's tokens",
          description:
            'Name, scopes, when each was made, last used and expires, who made it and the role it acts with; never a secret. ' +
            'A member and above (a viewer is 403).',
          tags,
          security: REQUIRED_AUTH,
          querystring: TokensQuery,
          response: { 200: ApiTokenList, ...errors },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        return (await tokens.ownTokens(caller)).map(toApiToken);
      },
    );

    app.get(
      '/tokens/current',
      {
        ...options,
        // Any token may say what it is: it names no secret and no other token.
        config: { limit: 'read', scope: 'none' },
        schema: {
          summary: 'The token this request presents',
          description: 'Its name, scopes, dates, maker and role, and its workspace: what the web app shows when it is signed in with a token.',
          tags,
          security: REQUIRED_AUTH,
          response: { 200: PresentedToken, ...errors },
        },
      },
      async (request) => {
        const { token, workspace } = await tokens.presentedToken(await authenticate(request));
        return { token: toApiToken(token), workspace };
      },
    );

    app.post(
      '/tokens',
      {
        ...options,
        schema: {
          summary: 'Make a token',
          description:
            'A token of the workspace with the scopes asked for (none given: every scope), made by the caller (a signed-in ' +
            'person, or the maker of the token that calls) and acting with the role asked for, at most the caller’s own (none ' +
            'given: the caller’s). `token`, the secret, is answered this once.',
          tags,
          security: REQUIRED_AUTH,
          querystring: TokensQuery,
          body: NewTokenBody,
          response: { 200: NewToken, ...errors, 422: errorResponse(422, { examples: TOKEN_EXAMPLES }) },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        const { name, scopes, expiresAt, role } = request.body;
        const expiry = expiresAt === undefined || expiresAt === '' ? undefined : parseExpiry(expiresAt, Date.now(), 'expiresAt');
        const { token, view } = await tokens.issueToken(caller, { name, scopes, expiresAt: expiry, role });
        return { ...toApiToken(view), token };
      },
    );

    app.delete(
      '/tokens/:id',
      {
        ...options,
        schema: {
          summary: 'Revoke a token',
          description: 'It stops working at once, on every instance. A token of another workspace, or one revoked already, is not found.',
          tags,
          security: REQUIRED_AUTH,
          params: TokenPath,
          querystring: TokensQuery,
          response: {
            200: Revoked,
            ...errors,
            404: errorResponse(404, {
              examples: { notFound: TOKEN_ERRORS.notFound, workspace: ACCOUNT_ERRORS.workspaceNotFound },
              description: 'E_NOT_FOUND: not a live token of the caller’s workspace.',
            }),
            422: errorResponse(422, { examples: TOKEN_EXAMPLES }),
          },
        },
      },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        await tokens.revokeOwnToken(caller, request.params.id);
        return { success: true as const };
      },
    );
  };
}
