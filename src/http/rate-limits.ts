import { createHash } from 'node:crypto';
import rateLimit, { type FastifyRateLimitStore, normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';
import { clientAddress } from '../analytics/client-address.js';
import type { Config } from '../config.js';
import { BriefError } from '../errors.js';
import { TOO_MANY_ATTEMPTS } from '../redirect/redirect-answer.js';
import type { CounterState, RateCounters } from '../shared-state/counters.js';
import { OPENAPI_PATH } from './api-docs.js';
import { errorResponse } from './error-schemas.js';

/** Every limit counts a minute (a fixed window per caller). */
const WINDOW_MS = 60_000;

/** The calls that make links, counted against RATE_LIMIT_ANON / RATE_LIMIT_TOKEN (HEAD is a GET). */
const LINK_ROUTES = new Set(['GET /v2/shorten', 'GET /v3/shorten', 'POST /v3/shorten/bulk']);
const PASSWORD_ROUTE = 'POST /:key';
const API_ROUTE = /^\/v[23]\//;

type Hook = onRequestHookHandler | preHandlerHookHandler;

/**
 * The rate limits and ANONYMOUS_SHORTEN, added to the routes they concern as the routes are
 * declared (so features know nothing of them, and redirects, which never reach here, pay
 * nothing):
 *
 * - links made: RATE_LIMIT_ANON a minute per client address without a token, RATE_LIMIT_TOKEN
 *   per token; a bulk call counts each of its items (a weighted count, so counted here on the
 *   same counters as the plugin's);
 * - every other /v2 and /v3 call: RATE_LIMIT_READ a minute per token or address
 *   (@fastify/rate-limit);
 * - password attempts (POST /{key}): RATE_LIMIT_PASSWORD a minute per address and link, over
 *   which the form's page answers 429 (@fastify/rate-limit's createRateLimit).
 *
 * The counters are `shared.counters`: in Redis when REDIS_URL is set (every instance shares
 * them), in this process otherwise or while Redis is down. Over a limit: 429
 * E_TOO_MANY_REQUESTS with Retry-After and RateLimit-Limit/-Remaining/-Reset (the IETF draft's
 * names); under it, the RateLimit-* headers. Each limited route's 429 is added to its API
 * document here too. Call before the routes are registered.
 */
export function registerRateLimits(app: FastifyInstance, config: Config, counters: RateCounters): void {
  const addressOf = clientAddress(config.trustProxy);
  /** The client's address, IPv6 by its /64 (one subscriber's network), as TRUST_PROXY says. */
  const address = (request: FastifyRequest) =>
    normalizeIP(addressOf(request.raw.socket.remoteAddress, request.headers['x-forwarded-for']) ?? 'unknown');
  /** Who is counted: the token (hashed: no secret goes to Redis), or the address without one. */
  const caller = (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (header === undefined) return `addr:${address(request)}`;
    const token = header.replace(/^\s*bearer\s+/i, '').trim();
    return `token:${createHash('sha256').update(token).digest('base64url').slice(0, 24)}`;
  };

  app.register(rateLimit, {
    global: false,
    store: counterStore(counters),
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => BriefError.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  let reads: Hook | undefined;
  let passwords: ReturnType<FastifyInstance['createRateLimit']> | undefined;

  const linkLimit: preHandlerHookHandler = async (request, reply) => {
    const anonymous = request.headers.authorization === undefined;
    const max = anonymous ? config.rateLimitAnon : config.rateLimitToken;
    if (max === 0) return;
    const weight = Array.isArray(request.body) ? Math.max(1, request.body.length) : 1;
    const state = await counters.add(`links:${caller(request)}`, weight, WINDOW_MS);
    const retryAfter = limitHeaders(reply, max, state);
    if (retryAfter !== undefined) throw BriefError.tooManyRequests(retryAfter);
  };

  const refuseAnonymous: onRequestHookHandler = async (request) => {
    if (request.headers.authorization === undefined) {
      throw BriefError.unauthorized('Anonymous shortening is turned off on this server: send a bearer token');
    }
  };

  const passwordLimit: preHandlerHookHandler = async (request, reply) => {
    passwords ??= app.createRateLimit({
      max: config.rateLimitPassword,
      timeWindow: WINDOW_MS,
      keyGenerator: (req) => `password:${address(req)}:${(req.headers.host ?? '').toLowerCase()}/${(req.params as { key: string }).key}`,
    });
    const result = await passwords(request);
    if (result.isAllowed || !result.isExceeded) return;
    reply.code(TOO_MANY_ATTEMPTS.status);
    for (let i = 0; i < TOO_MANY_ATTEMPTS.headers.length; i += 2) reply.header(TOO_MANY_ATTEMPTS.headers[i]!, TOO_MANY_ATTEMPTS.headers[i + 1]);
    limitHeaders(reply, result.max, { current: result.max + 1, ttlMs: result.ttl });
    return reply.send(TOO_MANY_ATTEMPTS.body);
  };

  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((m) => (m === 'HEAD' ? 'GET' : m));
    const signatures = methods.map((method) => `${method} ${route.url}`);
    if (signatures.includes(PASSWORD_ROUTE)) {
      if (config.rateLimitPassword > 0) {
        addHook(route, 'preHandler', passwordLimit);
        document(route, 429, errorResponse(429), true);
      }
      return;
    }
    if (!API_ROUTE.test(route.url) || route.url === OPENAPI_PATH) return;
    if (signatures.some((signature) => LINK_ROUTES.has(signature))) {
      if (!config.anonymousShorten) {
        addHook(route, 'onRequest', refuseAnonymous);
        document(route, 401, errorResponse(401, { examples: 'unauthorizedShorten', description: UNAUTHORIZED_SHORTEN }));
      }
      if (config.rateLimitAnon > 0 || config.rateLimitToken > 0) {
        addHook(route, 'preHandler', linkLimit);
        document(route, 429, errorResponse(429));
      }
      return;
    }
    if (config.rateLimitRead > 0) {
      reads ??= app.rateLimit({ max: config.rateLimitRead, timeWindow: WINDOW_MS, keyGenerator: (request) => `reads:${caller(request)}` });
      addHook(route, 'onRequest', reads);
      document(route, 429, errorResponse(429));
    }
  });
}

const UNAUTHORIZED_SHORTEN =
  'E_UNAUTHORIZED_ACCESS: the Authorization header is not a valid bearer token, or there is none while the server ' +
  'refuses anonymous shortening (`ANONYMOUS_SHORTEN=off`).';

function addHook(route: RouteOptions, name: 'onRequest' | 'preHandler', hook: Hook): void {
  const existing = route[name];
  route[name] = (existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook]) as never;
}

/** Adds a status to a route's documented responses; `html` for the password form, which answers a page. */
function document(route: RouteOptions, status: number, schema: object, html = false): void {
  const responses = route.schema?.response as Record<number, unknown> | undefined;
  if (!responses) return;
  responses[status] = html
    ? {
        description: 'Over RATE_LIMIT_PASSWORD attempts a minute from one address on this link: a page saying so, with Retry-After.',
        content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' } } },
      }
    : schema;
}

/**
 * RateLimit-Limit/-Remaining/-Reset on every counted answer, as the plugin sets them; over the
 * limit also Retry-After, whose seconds are returned (undefined under the limit).
 */
function limitHeaders(reply: FastifyReply, max: number, state: CounterState): number | undefined {
  const reset = Math.max(1, Math.ceil(state.ttlMs / 1000));
  reply.header('ratelimit-limit', max);
  reply.header('ratelimit-remaining', Math.max(0, max - state.current));
  reply.header('ratelimit-reset', reset);
  if (state.current <= max) return undefined;
  reply.header('retry-after', reset);
  return reset;
}

/** @fastify/rate-limit's store, on our counters: one set of counters for every route (keys say which limit). */
function counterStore(counters: RateCounters) {
  return class CounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counters.add(key, 1, timeWindow).then(
        (state) => callback(null, { current: state.current, ttl: state.ttlMs }),
        (error: Error) => callback(error),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}
