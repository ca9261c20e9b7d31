// The session cookie and the cross-site check of cookie-authenticated calls (decision 0028).
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { BriefError } from '../errors.js';

export const SESSION_COOKIE = 'brief_session';

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

/** The session cookie's value, if the request carries one that could be ours (43 base64url characters). */
export function sessionCookieOf(request: FastifyRequest): string | undefined {
  const value = cookieValue(request, SESSION_COOKIE);
  return value === undefined || /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : '';
}

/** Whether a cookie is sent over https only: BASE_URL is https, or this request came over it. */
export function secureCookie(config: Pick<Config, 'defaultDomain'>, request: FastifyRequest): boolean {
  return config.defaultDomain.urlPrefix.startsWith('https:') || request.protocol === 'https';
}

/**
 * The Set-Cookie of a new session: HttpOnly (no script reads it), SameSite=Lax (no cross-site
 * request but a top-level navigation carries it), Secure under https, for the whole host. A
 * browser session cookie no longer than the absolute lifetime.
 */
export function sessionCookie(config: Pick<Config, 'defaultDomain' | 'sessionMaxMs'>, request: FastifyRequest, sessionId: string): string {
  const maxAge = Math.floor(config.sessionMaxMs / 1000);
  return `${SESSION_COOKIE}=${sessionId}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secureCookie(config, request) ? '; Secure' : ''}`;
}

/** The Set-Cookie that removes the cookie (sign-out, or an ended session). */
export function clearedSessionCookie(config: Pick<Config, 'defaultDomain'>, request: FastifyRequest): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secureCookie(config, request) ? '; Secure' : ''}`;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses (403 E_FORBIDDEN) a cookie-authenticated request another site made the browser send:
 *
 * - any request the browser marks as cross-site or same-site (`Sec-Fetch-Site`), or whose `Origin` is
 *   neither BASE_URL's nor the request's own host;
 * - a change (any method but GET, HEAD and OPTIONS) that carries neither `Origin` nor
 *   `Sec-Fetch-Site: same-origin`: every browser sends one of them on such a request from a page.
 *
 * A bearer token needs none of this: a browser never adds it to a request on its own.
 */
export function createOriginCheck(config: Pick<Config, 'defaultDomain'>) {
  const baseOrigin = new URL(config.defaultDomain.urlPrefix).origin;
  return function refuseCrossSite(request: FastifyRequest): void {
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    if (site === 'cross-site' || site === 'same-site') throw crossSite();
    if (origin !== undefined) {
      if (origin === baseOrigin) return;
      let host: string | undefined;
      try {
        host = new URL(origin).host;
      } catch {
        // not a URL ("null" from a sandboxed frame): cross-site
      }
      if (host === undefined || host !== request.headers.host?.toLowerCase()) throw crossSite();
      return;
    }
    if (!SAFE_METHODS.has(request.method) && site !== 'same-origin') throw crossSite();
  };
}

const crossSite = () =>
  BriefError.forbidden('Cross-site requests with the session cookie are refused: call from Brief’s own pages, or use a bearer token');
