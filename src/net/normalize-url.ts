import { BriefError } from '../errors.js';

export const URL_MAX_LENGTH = 8192;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

const invalid = () => BriefError.invalid('url', 'url', 'The url field must be a valid URL');

/**
 * Parses and normalizes a long URL with the WHATWG parser: lower-case scheme and host,
 * punycode host, default port dropped, dot segments resolved, unsafe characters
 * percent-encoded. Only absolute http(s) URLs with a host are accepted.
 */
export function normalizeUrl(raw: string, maxLength = URL_MAX_LENGTH): URL {
  const tooLong = () => BriefError.invalid('url', 'maxLength', `The url field must not be greater than ${maxLength} characters`);
  if (raw.length > maxLength) throw tooLong();
  const trimmed = raw.trim();
  if (trimmed === '') throw BriefError.invalid('url', 'required', 'The url field must be defined');
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
  if (url.href.length > maxLength) throw tooLong();
  return url;
}

/**
 * A link's destination: a URL as normalizeUrl takes it, without a user name or password
 * unless ALLOW_URL_CREDENTIALS is on (every copy of the short link would hand them out).
 */
export function linkDestination(raw: string, allowCredentials: boolean): URL {
  const url = normalizeUrl(raw);
  if (!allowCredentials && (url.username !== '' || url.password !== '')) {
    throw BriefError.invalid(
      'url',
      'credentials',
      'The url field must not contain a user name or password (https://user:pass@host/): everyone who has the short link would see them',
    );
  }
  return url;
}
