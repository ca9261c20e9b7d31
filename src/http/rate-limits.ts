import { setTimeout as sleep } from 'node:timers/promises';
import rateLimit, { type FastifyRateLimitStore, normalizeIP } from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  onSendHookHandler,
  preHandlerHookHandler,
  RouteOptions,
} from 'fastify';
import type { Config } from '../config.js';
import { BriefError } from '../errors.js';
import type { ClientAddress } from '../net/client-address.js';
import type { CounterState, RateCounters } from '../shared-state/counters.js';
import type { Authenticate } from './auth.js';
import { EDGE_ERRORS } from './edge-errors.js';
import { errorMedia, errorResponse, RATE_LIMIT_HEADERS } from './error-schemas.js';

/**
 * The limit a route declares in its options (`config: { limit: 'read' }`), as Fastify's own examples do:
 *
 * - `links`: links made, RATE_LIMIT_ANON a minute per client address without a token, RATE_LIMIT_TOKEN per
 *   token; a bulk call counts each of its items;
 * - `read`: RATE_LIMIT_READ a minute per token, or per address without one;
 * - `domain-verify`: RATE_LIMIT_DOMAIN_VERIFY a minute per token (each call is a DNS query);
 * - `password`: a protected link's password form, RATE_LIMIT_PASSWORD_ADDRESS a minute per address on all
 *   links and RATE_LIMIT_PASSWORD per address and link; over either 429: the form's page to a browser's
 *   form (a form-encoded body, or `Accept: text/html`), the error shape to anything else. A key no link
 *   can have (`v2`, `api`, …) is no password attempt: not counted, and answered as the router answers it;
 * - `sign-in`: every call that checks a person's password (sign-in, invitation acceptance, a password
 *   change) or a secret that sets one (a reset link, an invitation): RATE_LIMIT_SIGN_IN_ADDRESS a minute
 *   per address on all of them together, on the password attempts' counters, 429 in the error shape.
 *   The per-email limit (RATE_LIMIT_SIGN_IN) is counted where the email is known, by the service that
 *   checks the password (people/user-passwords.ts), on the same counters: a call without an email in
 *   its body (an invitation's acceptance) counts against the invitee's.
 *
 * A route that declares none is not limited (redirects, pages, the API document).
 */
export type LimitPolicy = 'links' | 'read' | 'domain-verify' | 'password' | 'sign-in';

declare module 'fastify' {
  interface FastifyContextConfig {
    limit?: LimitPolicy;
  }
}

/**
 * A route that draws QR codes also declares `qrWeight` (`config: { limit: 'read', qrWeight }`): each
 * call then counts that weight, besides its `limit`, against RATE_LIMIT_QR a minute per token or
 * address (the weight grows with the URL and the image, as the drawing's cost does: qr/qr-weight.ts),
 * 429 in the error shape over it. The call's RateLimit-* headers are this limit's.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    qrWeight?: (request: FastifyRequest) => number;
  }
}

/** Every limit counts a minute (a fixed window per caller). */
const WINDOW_MS = 60_000;

/**
 * A refused password attempt (429 over a limit, 503 while the password threads are busy) is answered
 * after this pause, which costs the server nothing but a timer: a client that sends its next guess as
 * soon as it has an answer gets at most four a second a connection, not thousands the event loop would
 * share with the redirects (decision 0034).
 */
export const REFUSAL_PAUSE_MS = 250;

type Hook = onRequestHookHandler | preHandlerHookHandler | onSendHookHandler;

const pauseRefusals: onSendHookHandler = async (_request, reply, payload) => {
  if (reply.statusCode === 429 || reply.statusCode === 503) await sleep(REFUSAL_PAUSE_MS);
  return payload;
};

/** The counters: `requests` for the API's limits, `passwords` apart (no flood of API keys can evict them). */
export interface LimitCounters {
  readonly requests: RateCounters;
  readonly passwords: RateCounters;
}

/** A whole answer to send as it is: status, flat [name, value, …] header pairs, body. */
export interface FixedAnswer {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: string;
}

/** What the limits need from the rest of the app, given by the composition root (app.ts). */
export interface RateLimitDeps {
  readonly counters: LimitCounters;
  readonly authenticate: Authenticate;
  /** Who the client is, from the connection and X-Forwarded-For as TRUST_PROXY says. */
  readonly addressOf: ClientAddress;
  /**
   * The short domain a request's Host stands for (decision 0015: an unknown Host is the default
   * domain), so a password attempt counts on its link whatever Host it was sent with.
   */
  readonly domainOf: (request: FastifyRequest) => string;
  /** The password form's answer over its limits, to a browser's form: the redirect pipeline's page, 429. */
  readonly tooManyAttempts: FixedAnswer;
  /** Whether a key can be a link's (not one of Brief's own words): only those are password attempts. */
  readonly isLinkKey: (key: string) => boolean;
}

/**
 * The rate limits and ANONYMOUS_SHORTEN, added to each route by the limit it declares as the routes
 * are declared (so features know nothing of them, and redirects, which never reach here, pay
 * nothing). Who is counted: the token, by its id, once `authenticate` has found it live (the API
 * checks every token first: a made-up one is 401 and counts nowhere); the client address without
 * one.
 *
 * The counters are in Redis when REDIS_URL is set (every instance shares them), in this process
 * otherwise or while Redis is down. Over a limit: 429 E_TOO_MANY_REQUESTS with Retry-After and
 * RateLimit-Limit/-Remaining/-Reset (the IETF draft's names); under it, the RateLimit-* headers.
 * Each limited route's 429 is added to its API document here too. Call before the routes are
 * registered.
 */
export function registerRateLimits(app: FastifyInstance, config: Config, deps: RateLimitDeps): void {
  const { counters, authenticate, addressOf, domainOf, tooManyAttempts, isLinkKey } = deps;
  /** The client's address, IPv6 by its /64 (one subscriber's network), as TRUST_PROXY says. */
  const address = (request: FastifyRequest) =>
    normalizeIP(addressOf(request.raw.socket.remoteAddress, request.headers['x-forwarded-for']) ?? 'unknown');
  /** Who is counted: a live token by its id (no secret is ever a key), a signed-in person by theirs, or the address. */
  const caller = async (request: FastifyRequest) => {
    const { tokenId, userId } = await authenticate(request);
    if (tokenId !== undefined) return `token:${tokenId}`;
    return userId === undefined ? `addr:${address(request)}` : `user:${userId}`;
  };

  app.register(rateLimit, {
    global: false,
    store: counterStore(counters.requests),
    enableDraftSpec: true,
    errorResponseBuilder: (_request, context) => BriefError.tooManyRequests(Math.max(1, Math.ceil(context.ttl / 1000))),
  });

  /** A limit counted on the API's counters, `weight` a call; 429 in the error shape over it. */
  const counted = (
    name: string,
    max: (request: FastifyRequest) => number | Promise<number>,
    weight: (request: FastifyRequest) => number,
  ): preHandlerHookHandler =>
    async function limit(request, reply) {
      const limit = await max(request);
      if (limit === 0) return;
      const state = await counters.requests.add(`${name}:${await caller(request)}`, weight(request), WINDOW_MS);
      const retryAfter = limitHeaders(reply, limit, state);
      if (retryAfter !== undefined) throw BriefError.tooManyRequests(retryAfter);
    };

  const linkLimit = counted(
    'links',
    async (request) => ((await authenticate(request)).anonymous ? config.rateLimitAnon : config.rateLimitToken),
    (request) => (Array.isArray(request.body) ? Math.max(1, request.body.length) : 1),
  );
  const verifyLimit = counted(
    'domain-verify',
    () => config.rateLimitDomainVerify,
    () => 1,
  );
  let reads: Hook | undefined;

  const refuseAnonymous: onRequestHookHandler = async (request) => {
    if ((await authenticate(request)).anonymous) {
      throw EDGE_ERRORS.anonymousOff();
    }
  };

  /** Each attempt counts on the address's counter first, then (under that limit) on the address and link's. */
  const passwordLimit: preHandlerHookHandler = async (request, reply) => {
    const { key } = request.params as { key: string };
    // `POST /v2?…` is the API's unknown route (JSON), never a guess at a link's password.
    if (!isLinkKey(key)) return;
    const from = address(request);
    const link = `${domainOf(request)}/${key}`;
    const limits: Array<[key: string, max: number]> = [
      [`password:${from}`, config.rateLimitPasswordAddress],
      [`password:${from}:${link}`, config.rateLimitPassword],
    ];
    for (const [counter, max] of limits) {
      if (max === 0) continue;
      const state = await counters.passwords.add(counter, 1, WINDOW_MS);
      if (state.current <= max) continue;
      if (!fromBrowserForm(request)) throw BriefError.tooManyRequests(limitHeaders(reply, max, state) ?? 1);
      reply.code(tooManyAttempts.status);
      for (let i = 0; i < tooManyAttempts.headers.length; i += 2) reply.header(tooManyAttempts.headers[i]!, tooManyAttempts.headers[i + 1]);
      limitHeaders(reply, max, state);
      return reply.send(tooManyAttempts.body);
    }
  };

  /** Each attempt counts on the address's counter; the email's is the service's, once it knows whose password it checks. */
  const signInLimit: preHandlerHookHandler = async (request, reply) => {
    const state = await counters.passwords.add(`sign-in:${address(request)}`, 1, WINDOW_MS);
    const retryAfter = limitHeaders(reply, config.rateLimitSignInAddress, state);
    if (retryAfter !== undefined) throw BriefError.tooManyRequests(retryAfter);
  };

  app.addHook('onRoute', (route) => {
    switch (route.config?.limit) {
      case 'sign-in':
        addHook(route, 'onSend', pauseRefusals);
        if (config.rateLimitSignInAddress > 0) addHook(route, 'preHandler', signInLimit);
        // The email's limit is counted by the service: a 429 can happen with the address's limit off.
        if (config.rateLimitSignIn > 0 || config.rateLimitSignInAddress > 0) document(route, 429, errorResponse(429));
        return;
      case 'password':
        addHook(route, 'onSend', pauseRefusals);
        if (config.rateLimitPassword > 0 || config.rateLimitPasswordAddress > 0) {
          addHook(route, 'preHandler', passwordLimit);
          document(route, 429, errorResponse(429), true);
        }
        return;
      case 'links':
        if (!config.anonymousShorten) {
          addHook(route, 'onRequest', refuseAnonymous);
          document(route, 401, errorResponse(401, { examples: 'unauthorizedShorten', description: UNAUTHORIZED_SHORTEN }));
        }
        if (config.rateLimitAnon > 0 || config.rateLimitToken > 0) {
          addHook(route, 'preHandler', linkLimit);
          document(route, 429, errorResponse(429));
        }
        return;
      case 'domain-verify':
        if (config.rateLimitDomainVerify > 0) {
          addHook(route, 'preHandler', verifyLimit);
          document(route, 429, errorResponse(429));
        }
        return;
      case 'read':
        if (config.rateLimitRead > 0) {
          reads ??= app.rateLimit({
            max: config.rateLimitRead,
            timeWindow: WINDOW_MS,
            keyGenerator: async (request) => `reads:${await caller(request)}`,
          });
          addHook(route, 'onRequest', reads);
          document(route, 429, errorResponse(429));
        }
        return;
      case undefined:
        return;
    }
  });

  // RATE_LIMIT_QR, on the routes that declare a qrWeight, after their own limit.
  const qrLimit = (weight: (request: FastifyRequest) => number) =>
    counted(
      'qr',
      () => config.rateLimitQr,
      (request) => Math.max(1, weight(request)),
    );
  app.addHook('onRoute', (route) => {
    const weight = route.config?.qrWeight;
    if (weight === undefined || config.rateLimitQr === 0) return;
    addHook(route, 'preHandler', qrLimit(weight));
    document(route, 429, errorResponse(429));
  });
}

const UNAUTHORIZED_SHORTEN =
  'E_UNAUTHORIZED_ACCESS: the Authorization header is not a valid bearer token, or there is none while the server ' +
  'refuses anonymous shortening (`ANONYMOUS_SHORTEN=off`).';

function addHook(route: RouteOptions, name: 'onRequest' | 'preHandler' | 'onSend', hook: Hook): void {
  const existing = route[name];
  route[name] = (existing === undefined ? [hook] : [...(Array.isArray(existing) ? existing : [existing]), hook]) as never;
}

/**
 * A browser's own form post: a form-encoded body (what the password page sends), or a client that asks
 * for HTML. It gets the form's page; a script gets the error shape.
 */
function fromBrowserForm(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return /^application\/x-www-form-urlencoded\b/i.test(type) || /\btext\/html\b/i.test(request.headers.accept ?? '');
}

/** Adds a status to a route's documented responses; `html` for the password form, which answers a page to a browser. */
function document(route: RouteOptions, status: number, schema: object, html = false): void {
  const responses = route.schema?.response as Record<number, unknown> | undefined;
  if (!responses) return;
  responses[status] = html
    ? {
        description:
          'Over RATE_LIMIT_PASSWORD attempts a minute from one address on this link, or RATE_LIMIT_PASSWORD_ADDRESS from one ' +
          'address on all links, with Retry-After: to a browser’s form (a form-encoded body, or `Accept: text/html`) a page ' +
          'saying so; to any other client E_TOO_MANY_REQUESTS in the error shape. A key no link can have (`v2`, `api`, …) ' +
          'is never counted.',
        headers: structuredClone(RATE_LIMIT_HEADERS),
        content: { 'text/html': { schema: { type: 'string', contentMediaType: 'text/html' } }, 'application/json': errorMedia('tooManyRequests') },
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
