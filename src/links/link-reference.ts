import { LINK_KEY as KEY } from './codes.js';

/** Where a link lives: a short domain (host[:port]) and the key (code or slug) on it. */
export interface LinkReference {
  domain: string;
  key: string;
  /** True when the reference named the domain itself (not the default). */
  explicitDomain: boolean;
}

/**
 * Reads `{link}` of DELETE /v2/links/{link} (and the CLI's LINK): a code or slug on the
 * default domain, `domain/key`, or a full short URL `scheme://domain/key`. Returns null
 * for anything that cannot name a link.
 */
export function parseLinkReference(raw: string, defaultDomain: string): LinkReference | null {
  const text = raw.trim();
  let domain: string;
  let key: string;
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return null;
    }
    if (url.search || url.hash) return null;
    domain = url.host;
    key = url.pathname.slice(1);
  } else {
    const slash = text.indexOf('/');
    if (slash === -1) return KEY.test(text) ? { domain: defaultDomain, key: text, explicitDomain: false } : null;
    domain = text.slice(0, slash).toLowerCase();
    key = text.slice(slash + 1);
  }
  // Control characters and spaces never occur in a host (and PostgreSQL refuses NUL in a query).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  if (!domain || /[\s\u0000-\u001f\u007f]/.test(domain) || !KEY.test(key)) return null;
  return { domain, key, explicitDomain: true };
}
