import type { Config } from '../config.js';
import type { LinkTarget } from '../storage/stores.js';
import { BLOCKED_PAGE, NOT_FOUND_PAGE } from './pages.js';

/** A complete redirect response: what both the Fastify route and the raw fast path send. */
export interface RedirectAnswer {
  readonly status: number;
  /** Flat [name, value, …] pairs, as node:http's writeHead takes them. */
  readonly headers: readonly string[];
  readonly body: string;
}

const HTML = 'text/html; charset=utf-8';

const page = (status: number, html: string): RedirectAnswer =>
  Object.freeze({ status, headers: Object.freeze(['content-type', HTML, 'content-length', String(Buffer.byteLength(html))]), body: html });

const NOT_FOUND = page(404, NOT_FOUND_PAGE);
const BLOCKED = page(410, BLOCKED_PAGE);

/** Builds the answer for a target; headers that never change are built once. */
export function redirectAnswers(config: Config): (target: LinkTarget | null) => RedirectAnswer {
  // Permanent redirects may be cached by browsers, but only briefly, so a deleted link dies soon.
  const cacheControl = config.redirectStatus === 301 || config.redirectStatus === 308 ? 'private, max-age=90' : 'no-store';
  const status = config.redirectStatus;
  return (target) => {
    if (!target) return NOT_FOUND;
    if (target.blocked) return BLOCKED;
    return { status, headers: ['location', target.url, 'cache-control', cacheControl, 'content-length', '0'], body: '' };
  };
}
