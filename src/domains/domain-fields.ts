// A short domain's fields: its name (shared by the CLI's `brief domain add` and the v3 calls)
// and its settings.
import type { ShortDomain } from '../config.js';
import { linkDestination } from '../net/normalize-url.js';
import { CODE_LENGTH_MAX, CODE_LENGTH_MIN } from './code-lengths.js';
import { DOMAIN_ERRORS } from './domain-errors.js';

export { CODE_LENGTH_MAX, CODE_LENGTH_MIN };

/** host[:port], lower-case, at most 253 characters before the port. */
export const HOSTNAME = /^(?=.{1,253}(:|$))([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(:\d{1,5})?$/;

/**
 * A domain as it is added: `host[:port]`, `https://` unless a scheme is given; nothing after the
 * host. undefined when it is not such a name.
 */
export function parseShortDomain(raw: string): ShortDomain | undefined {
  const withScheme = /^https?:\/\//i.test(raw) ? raw : `https://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (!HOSTNAME.test(url.host) || url.pathname !== '/' || url.search || url.hash || url.username || url.password) return undefined;
  return { hostname: url.host, urlPrefix: `${url.protocol}//${url.host}` };
}

/** A domain as a path names it (`go.example.com`, any case, a scheme or a trailing slash tolerated); undefined when it cannot be one. */
export function domainInPath(raw: string): string | undefined {
  const hostname = raw
    .trim()
    .replace(/^https?:\/\//i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
  return HOSTNAME.test(hostname) ? hostname : undefined;
}

/** A domain's own length of generated codes: a whole number from 4 to 32, like CODE_LENGTH. */
export function checkCodeLength(field: string, length: number): number {
  if (!Number.isInteger(length) || length < CODE_LENGTH_MIN || length > CODE_LENGTH_MAX) throw DOMAIN_ERRORS.codeLength(field);
  return length;
}

/**
 * A domain's redirect destination: an absolute http(s) URL, normalized and checked as a link's
 * (no user name or password unless ALLOW_URL_CREDENTIALS is on); the errors name `field`.
 */
export function parseRedirectUrl(field: string, value: string, allowCredentials: boolean): URL {
  return linkDestination(value, allowCredentials, field);
}
