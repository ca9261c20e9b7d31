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
