import type { Config } from '../config.js';
import {
  BLOCKED_PAGE,
  EXPIRED_PAGE,
  NOT_FOUND_PAGE,
  PAGE_SECURITY_HEADERS,
  PASSWORD_CHECKS_BUSY_PAGE,
  PASSWORD_PAGE,
  TOO_MANY_ATTEMPTS_PAGE,
  VISIT_LIMIT_PAGE,
  WRONG_PASSWORD_PAGE,
} from '../html/pages.js';
import type { LinkTarget } from '../storage/stores/links.js';

/** A complete redirect response: what both the Fastify route and the raw fast path send. */
export interface RedirectAnswer {
  readonly status: number;
  /** Flat [name, value, …] pairs, as node:http's writeHead takes them. */
  readonly headers: readonly string[];
  readonly body: string;
}

const HTML = 'text/html; charset=utf-8';

const page = (status: number, html: string, ...extra: string[]): RedirectAnswer =>
  Object.freeze({
    status,
    headers: Object.freeze(['content-type', HTML, 'content-length', String(Buffer.byteLength(html)), ...PAGE_SECURITY_HEADERS, ...extra]),
    body: html,
  });

const NOT_FOUND = page(404, NOT_FOUND_PAGE);
export const BLOCKED = page(410, BLOCKED_PAGE);
export const EXPIRED = page(410, EXPIRED_PAGE);
// Not kept by browsers: raising the limit reopens the link.
export const VISIT_LIMIT_REACHED = page(410, VISIT_LIMIT_PAGE, 'cache-control', 'no-store');
// The form is never cached: whether a link has a password, and what it is, can change.
export const PASSWORD_FORM = page(200, PASSWORD_PAGE, 'cache-control', 'no-store');
export const WRONG_PASSWORD = page(403, WRONG_PASSWORD_PAGE, 'cache-control', 'no-store');
/** Over the password attempts a client may make on a link (RATE_LIMIT_PASSWORD); the limiter adds Retry-After. */
export const TOO_MANY_ATTEMPTS = page(429, TOO_MANY_ATTEMPTS_PAGE, 'cache-control', 'no-store');
/** Too many password checks waiting on the whole server (passwords/password-pool.ts): try again in a moment. */
export const PASSWORD_CHECKS_BUSY = page(503, PASSWORD_CHECKS_BUSY_PAGE, 'cache-control', 'no-store', 'retry-after', '1');

/**
 * A link's card page, for a link-preview fetcher (decision 0041): 200, kept by no shared cache and by no browser (the
 * same address answers people with the redirect, and the card can change), and marked as depending on the User-Agent.
 */
export function cardAnswer(html: string): RedirectAnswer {
  return page(200, html, 'cache-control', 'private, no-store', 'vary', 'User-Agent');
}

/**
 * A redirect of a link with a card, for anyone but a preview fetcher: the answer it always was, marked as depending on
 * the User-Agent, so that no cache that keeps it (a browser, for 90 seconds after a 301) gives it to a fetcher.
 */
export function varyingByAgent(answer: RedirectAnswer): RedirectAnswer {
  return { status: answer.status, headers: [...answer.headers, 'vary', 'User-Agent'], body: answer.body };
}

/** After the right password: on to the destination, as a GET (303), not cached. */
export function unlocked(url: string, cookie?: string): RedirectAnswer {
  const headers = ['location', url, 'cache-control', 'no-store', 'content-length', '0'];
  return { status: 303, headers: cookie === undefined ? headers : [...headers, 'set-cookie', cookie], body: '' };
}

/**
 * A domain's home or not-found redirect: 302, never cached (the setting can change or go),
 * and no visit of any link.
 */
export function settingRedirect(url: string): RedirectAnswer {
  return Object.freeze({ status: 302, headers: Object.freeze(['location', url, 'cache-control', 'no-store', 'content-length', '0']), body: '' });
}

/**
 * Builds the answer for a target; headers that never change are built once. `personal`: the destination depends on
 * the visitor (a link's rules), so the answer is a 302 no browser keeps, whatever REDIRECT_STATUS says: a kept 301
 * would pin a browser to one target.
 */
export function redirectAnswers(
  config: Config,
): (target: LinkTarget | null, location?: string, personal?: boolean, cookie?: string) => RedirectAnswer {
  // Permanent redirects may be cached by browsers, but only briefly, so a deleted link dies soon.
  const cacheControl = config.redirectStatus === 301 || config.redirectStatus === 308 ? 'private, max-age=90' : 'no-store';
  const status = config.redirectStatus;
  // `location`: the destination with a visitor's query string (query-forwarding.ts); the stored url without one.
  return (target, location, personal, cookie) => {
    if (!target) return NOT_FOUND;
    if (target.blocked) return BLOCKED;
    if (personal) {
      const headers = ['location', location ?? target.url, 'cache-control', 'private, no-store', 'content-length', '0'];
      return { status: 302, headers: cookie === undefined ? headers : [...headers, 'set-cookie', cookie], body: '' };
    }
    return { status, headers: ['location', location ?? target.url, 'cache-control', cacheControl, 'content-length', '0'], body: '' };
  };
}
