import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { forbiddenFor, missingScopes, type RouteScope } from '../accounts/scopes.js';
import type { Authenticate } from './auth.js';
import { errorResponse } from './error-schemas.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a token must hold to make the call (accounts/scopes.ts), declared with the route as its
     * limit is: `config: { limit: 'read', scope: 'links:read' }`. Every /v2 and /v3 route declares one.
     */
    scope?: RouteScope;
  }
}

/**
 * Token scopes, checked where each route declares what it needs: a token without it is 403
 * E_FORBIDDEN naming the scope, before the route's limits count the call (as a 401 is not counted:
 * it cost one lookup). Callers without a token are not limited by scopes; each call decides what
 * anonymous callers may do, as before. A route of the API that declares no scope is an error at
 * start-up, so none can be added without saying what it needs. Call in the API's context, before
 * its routes and before the rate limits attach theirs.
 */
export function registerRouteScopes(api: FastifyInstance, authenticate: Authenticate): void {
  const checks = new Map<RouteScope, onRequestHookHandler>();
  const checkFor = (needed: RouteScope): onRequestHookHandler => {
    let check = checks.get(needed);
    if (check === undefined) {
      check = async function scopeCheck(request) {
        if (request.headers.authorization === undefined) return;
        const missing = missingScopes((await authenticate(request)).scopes, needed);
        if (missing.length > 0) throw forbiddenFor(missing, needed);
      };
      checks.set(needed, check);
    }
    return check;
  };

  api.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' || (Array.isArray(route.method) && route.method.includes('OPTIONS'))) return;
    const needed = route.config?.scope;
    if (needed === undefined) throw new Error(`${String(route.method)} ${route.url} declares no token scope (config.scope)`);
    if (needed === 'none') return;
    const existing = route.onRequest;
    route.onRequest = (
      existing === undefined ? [checkFor(needed)] : [checkFor(needed), ...(Array.isArray(existing) ? existing : [existing])]
    ) as never;
    const responses = route.schema?.response as Record<number, unknown> | undefined;
    if (responses) responses[403] = errorResponse(403, needed === 'every' ? { examples: 'forbidden' } : {});
  });
}
