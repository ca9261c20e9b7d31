// Single sign-on (decision 0031): GET /auth/oidc/start sends the browser to the provider, GET
// /auth/oidc/callback brings it back signed in. What the callback is checked against (state, nonce,
// PKCE verifier) waits in a short-lived HttpOnly cookie bound to this browser. Every failure sends the
// browser back to the app with `?sso_error=CODE`, which the sign-in dialog announces; never a 500.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { documentedOnly, NO_AUTH } from '../../http/api-docs.js';
import { cookieValue, secureCookie, sessionCookie } from '../../http/session-cookie.js';
import { AUTH_TAGS } from '../signed-in-routes.js';
import type { PendingSignIn } from './oidc-client.js';
import { PENDING_MS, type SingleSignOn, type SsoFailure } from './single-sign-on.js';

export const PENDING_COOKIE = 'brief_oidc';
/**
 * Its name under https: like the session cookie's (http/session-cookie.ts), the `__Host-` prefix keeps a
 * pending sign-in from being planted by a plain-http page or a sibling subdomain (which could otherwise sign
 * this browser in as someone else); the prefix needs Path=/.
 */
export const SECURE_PENDING_COOKIE = `__Host-${PENDING_COOKIE}`;
const COOKIE_PATH = '/auth/oidc';

/** The pending cookie's name and path for this request's scheme. */
function pendingCookieOf(config: Pick<Config, 'defaultDomain'>, request: FastifyRequest) {
  return secureCookie(config, request)
    ? { name: SECURE_PENDING_COOKIE, path: '/', secure: '; Secure' }
    : { name: PENDING_COOKIE, path: COOKIE_PATH, secure: '' };
}

/** Where the app may ask to come back to: its home page or one of its pages under /app/, without a query or dot segments. */
const RETURN_PATH = /^\/(?:app(?:\/[A-Za-z0-9._~%!$&'()*+,;=:@-]+)*\/?)?$/;
const isReturnPath = (value: string) => value.length <= 512 && RETURN_PATH.test(value) && !/\/\.\.?(?:\/|$)/.test(value);

interface Pending extends PendingSignIn {
  /** The app's page to come back to. */
  readonly returnTo: string;
  /** When the sign-in stops being accepted (ms since the epoch). */
  readonly expiresAt: number;
}

const found = (description: string) => ({
  description,
  type: 'null',
  headers: { Location: { type: 'string' }, 'Set-Cookie': { type: 'string' } },
});

export interface OidcRouteDeps {
  readonly config: Pick<Config, 'defaultDomain' | 'sessionMaxMs'>;
  readonly signOn: SingleSignOn;
  readonly log: { error(details: object, message: string): void };
  readonly now?: () => number;
}

export function oidcRoutes({ config, signOn, log, now = Date.now }: OidcRouteDeps) {
  const pendingCookie = (request: FastifyRequest, value: string, maxAgeSeconds: number) => {
    const { name, path, secure } = pendingCookieOf(config, request);
    return `${name}=${value}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
  };
  const fail = (reply: FastifyReply, returnTo: string, failure: SsoFailure) => reply.redirect(`${returnTo}?sso_error=${failure}`, 302);

  return async (app: FastifyInstance) => {
    app.get(
      '/auth/oidc/start',
      {
        serializerCompiler: documentedOnly,
        // Each step of an SSO sign-in counts as a sign-in attempt from the client's address.
        config: { limit: 'sign-in' },
        schema: {
          summary: 'Sign in with SSO',
          description:
            'Sends the browser to the OpenID Connect provider (authorization code flow with PKCE, state and nonce, kept in a ' +
            `10-minute HttpOnly cookie \`${PENDING_COOKIE}\`, \`${SECURE_PENDING_COOKIE}\` under https). \`return\`: the app's page to come back to (\`/\` or under \`/app/\`). ` +
            'When the provider cannot be reached, back to that page with `?sso_error=unavailable`. Only when OIDC_ISSUER is set.',
          tags: AUTH_TAGS,
          security: NO_AUTH,
          response: { 302: found('To the provider, or back to the app with `sso_error`.') },
        },
      },
      async (request, reply) => {
        const returnTo = returnPathOf(request.query);
        reply.header('cache-control', 'no-store');
        const begun = await signOn.begin();
        if ('failure' in begun) return fail(reply, returnTo, begun.failure);
        const pending: Pending = { ...begun.pending, returnTo, expiresAt: now() + PENDING_MS };
        reply.header('set-cookie', pendingCookie(request, encodePending(pending), PENDING_MS / 1000));
        return reply.redirect(begun.url.href, 302);
      },
    );

    app.get(
      '/auth/oidc/callback',
      {
        serializerCompiler: documentedOnly,
        config: { limit: 'sign-in' },
        schema: {
          summary: 'Return from the SSO provider',
          description:
            'Checks the answer against this browser’s cookie (state once only, nonce, PKCE), exchanges the code, requires a verified ' +
            'email and signs in the user who has it (or makes one, with OIDC_AUTO_CREATE=on): the session cookie is set and the ' +
            'browser goes back to the app. Any failure goes back with `?sso_error=` one of unavailable, denied, state, failed, ' +
            'unverified, unknown, no-workspace.',
          tags: AUTH_TAGS,
          security: NO_AUTH,
          response: { 302: found('Back to the app: signed in, or with `sso_error`.') },
        },
      },
      async (request, reply) => {
        const pending = pendingOf(cookieValue(request, pendingCookieOf(config, request).name), now());
        const returnTo = pending?.returnTo ?? '/';
        const query = new URLSearchParams(request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '');
        // The cookie is used once, whatever happens.
        const cookies = [pendingCookie(request, '', 0)];
        reply.header('cache-control', 'no-store');
        let outcome: Awaited<ReturnType<SingleSignOn['finish']>>;
        try {
          outcome = await signOn.finish(query, pending);
        } catch (error) {
          log.error({ err: error }, 'single sign-on: the callback failed');
          outcome = { failure: 'unavailable' };
        }
        if ('failure' in outcome) {
          reply.header('set-cookie', cookies);
          return fail(reply, returnTo, outcome.failure);
        }
        cookies.push(sessionCookie(config, request, outcome.session.sessionId));
        reply.header('set-cookie', cookies);
        return reply.redirect(returnTo, 302);
      },
    );
  };
}

function returnPathOf(query: unknown): string {
  const value = (query as { return?: unknown } | undefined)?.return;
  return typeof value === 'string' && isReturnPath(value) ? value : '/';
}

function encodePending(pending: Pending): string {
  return Buffer.from(JSON.stringify(pending)).toString('base64url');
}

/** The pending sign-in this browser kept (its cookie's value), when it is well-formed and not expired. */
function pendingOf(value: string | undefined, now: number): Pending | undefined {
  if (value === undefined || !/^[A-Za-z0-9_-]{1,2048}$/.test(value)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { state, nonce, verifier, returnTo, expiresAt } = parsed;
    if (typeof state !== 'string' || typeof nonce !== 'string' || typeof verifier !== 'string') return undefined;
    if (typeof returnTo !== 'string' || !isReturnPath(returnTo) || typeof expiresAt !== 'number' || expiresAt <= now) return undefined;
    return { state, nonce, verifier, returnTo, expiresAt };
  } catch {
    return undefined;
  }
}
