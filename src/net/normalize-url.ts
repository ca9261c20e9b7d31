import { BriefError, tooLong } from '../errors.js';
import { URL_ERRORS } from './url-errors.js';

export const URL_MAX_LENGTH = 8192;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Parses and normalizes a long URL with the WHATWG parser: lower-case scheme and host,
 * punycode host, default port dropped, dot segments resolved, unsafe characters
 * percent-encoded. Only absolute http(s) URLs with a host are accepted; the errors name `field`.
 */
export function normalizeUrl(raw: string, maxLength = URL_MAX_LENGTH, field = 'url'): URL {
  const longer = () => BriefError.field(tooLong(field, maxLength));
  const invalid = () => URL_ERRORS.invalid(field);
  if (raw.length > maxLength) throw longer();
  const trimmed = raw.trim();
  if (trimmed === '') throw URL_ERRORS.missing(field);
  // The WHATWG parser accepts "http:example.com"; a URL must spell out its scheme and "//".
  if (!HAS_SCHEME.test(trimmed)) throw invalid();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw invalid();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') throw invalid();
  // Percent-encoding and punycode can lengthen it: the limit holds for the normalized form too.
  if (url.href.length > maxLength) throw longer();
  return url;
}

/**
 * A link's destination (or a domain's redirect, named by `field`): a URL as normalizeUrl takes it, without a
 * user name or password unless ALLOW_URL_CREDENTIALS is on (every copy of the short link would hand them out).
 */
export function linkDestination(raw: string, allowCredentials: boolean, field = 'url'): URL {
  const url = normalizeUrl(raw, URL_MAX_LENGTH, field);
  if (!allowCredentials && (url.username !== '' || url.password !== '')) throw URL_ERRORS.credentials(field);
  return url;
}
