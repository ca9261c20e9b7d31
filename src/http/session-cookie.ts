// The session cookie and the cross-site check of cookie-authenticated calls (decision 0028).
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { EDGE_ERRORS } from './edge-errors.js';

/** The session cookie's name over plain http. */
export const SESSION_COOKIE = 'brief_session';
/**
 * Its name under https. The `__Host-` prefix makes a browser keep the cookie only when it is Secure, set over
 * https by this very host, with Path=/ and no Domain: so neither a plain-http page nor a sibling subdomain
 * (`Domain=example.com`) can plant one, and Brief never reads the other name under https.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

type SchemeConfig = Pick<Config, 'defaultDomain'>;

/**
 * The scheme Brief is reached by for this request: https when BASE_URL is https (a proxy in front ends
 * TLS) or the request came over https (TLS, or `X-Forwarded-Proto` from a proxy TRUST_PROXY trusts).
 */
export function requestScheme(config: SchemeConfig, request: FastifyRequest): 'https' | 'http' {
  return config.defaultDomain.urlPrefix.startsWith('https:') || request.protocol?.toLowerCase() === 'https' ? 'https' : 'http';
}

/** Whether a cookie is sent over https only: BASE_URL is https, or this request came over it. */
export function secureCookie(config: SchemeConfig, request: FastifyRequest): boolean {
  return requestScheme(config, request) === 'https';
}

/** The session cookie's name for this request: `__Host-brief_session` under https, `brief_session` over plain http. */
export function sessionCookieName(config: SchemeConfig, request: FastifyRequest): string {
  return secureCookie(config, request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** The value of the request's first cookie named `name` (without the spaces around it), or undefined when it has none. */
export function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (header === undefined || !header.includes(name)) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at >= 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The session cookie's value, if the request carries one that could be ours (43 base64url characters): only
 * the name of the request's scheme is read, so under https a `brief_session` (which anyone on plain http, or
 * on a sibling subdomain, could have set) is no cookie at all.
 */
export function sessionCookieOf(config: SchemeConfig, request: FastifyRequest): string | undefined {
  const value = cookieValue(request, sessionCookieName(config, request));
  return value === undefined || /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : '';
}

/**
 * The Set-Cookie of a new session: HttpOnly (no script reads it), SameSite=Lax (no cross-site
 * request but a top-level navigation carries it), Secure and `__Host-` under https, for the whole host (no
 * Domain). A browser session cookie no longer than the absolute lifetime.
 */
export function sessionCookie(config: Pick<Config, 'defaultDomain' | 'sessionMaxMs'>, request: FastifyRequest, sessionId: string): string {
  const maxAge = Math.floor(config.sessionMaxMs / 1000);
  return `${sessionCookieName(config, request)}=${sessionId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureCookie(config, request) ? '; Secure' : ''}`;
}

/** The Set-Cookie that removes the cookie (sign-out, or an ended session). */
export function clearedSessionCookie(config: SchemeConfig, request: FastifyRequest): string {
  return `${sessionCookieName(config, request)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secureCookie(config, request) ? '; Secure' : ''}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses (403 E_FORBIDDEN) a cookie-authenticated request another site made the browser send:
 *
 * - any request the browser marks as cross-site or same-site (`Sec-Fetch-Site`), or whose `Origin` is
 *   neither BASE_URL's origin nor the request's own — scheme, host and port all compared: the request's
 *   scheme is requestScheme's (https when BASE_URL or the request is), its host and port the Host header's;
 * - a change (any method but GET, HEAD and OPTIONS) that carries neither `Origin` nor
 *   `Sec-Fetch-Site: same-origin`: every browser sends one of them on such a request from a page.
 *
 * A bearer token needs none of this: a browser never adds it to a request on its own.
 */
export function createOriginCheck(config: SchemeConfig) {
  const baseOrigin = new URL(config.defaultDomain.urlPrefix).origin;
  return function refuseCrossSite(request: FastifyRequest): void {
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    if (site === 'cross-site' || site === 'same-site') throw EDGE_ERRORS.crossSite();
    if (origin !== undefined) {
      const from = originOf(origin);
      if (from === undefined || (from !== baseOrigin && from !== ownOrigin(config, request))) throw EDGE_ERRORS.crossSite();
      return;
    }
    if (!SAFE_METHODS.has(request.method) && site !== 'same-origin') throw EDGE_ERRORS.crossSite();
  };
}

/** The origin the request itself was made to: its scheme (requestScheme) and its Host header. */
function ownOrigin(config: SchemeConfig, request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  return host === undefined || host === '' ? undefined : originOf(`${requestScheme(config, request)}://${host}`);
}

/** scheme://host[:port] as the WHATWG parser writes it (lower case, no default port); undefined for "null" or what is no http(s) URL. */
function originOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
