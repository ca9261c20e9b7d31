import { PAGE_SECURITY_HEADERS } from '../redirect/pages.js';

/** The security headers of Brief's own HTML pages (redirect/pages.ts), as an object for reply.headers(). */
export const HTML_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze(pairs(PAGE_SECURITY_HEADERS));

/**
 * The API reference page (/docs) runs Swagger UI's scripts and styles, all served from here: the
 * same headers, with a policy that allows this server's own scripts, styles, images and fonts only.
 */
export const DOCS_PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...HTML_PAGE_HEADERS,
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
    "font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
});

function pairs(flat: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) headers[flat[i]!] = flat[i + 1]!;
  return headers;
}
