/**
 * The UTM builder's URL logic: the five utm_ parameters read from a URL as typed and written into it. The query is
 * worked on as text, one `&`-separated pair at a time, so everything else a person typed stays as they typed it: the
 * other parameters (their order and their own encoding), the fragment, the host and path. Keys are matched ignoring
 * case (`UTM_Source` is the source) and written in lower case, the spelling analytics tools read.
 */

export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
export type UtmValues = Record<UtmKey, string>;

/** What the server accepts as a link's URL (src/net/normalize-url.ts): a scheme and `//`, then http(s) (whose URLs always have a host). */
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The URL the link will redirect to, as the server will store it (the WHATWG parser's `href`), or null for text the
 * server would refuse: then the builder leaves the URL alone.
 */
export function destination(text: string): string | null {
  const trimmed = text.trim();
  if (!HAS_SCHEME.test(trimmed)) return null;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A URL cut where its query starts and where its fragment starts: the first `#` begins the fragment, the first `?` before it the query. */
function parts(text: string): { base: string; pairs: string[]; fragment: string } {
  const hash = text.indexOf('#');
  const fragment = hash === -1 ? '' : text.slice(hash);
  const beforeHash = hash === -1 ? text : text.slice(0, hash);
  const question = beforeHash.indexOf('?');
  if (question === -1) return { base: beforeHash, pairs: [], fragment };
  const query = beforeHash.slice(question + 1);
  return { base: beforeHash.slice(0, question), pairs: query === '' ? [] : query.split('&'), fragment };
}

/** A key or value as a query carries it: `+` is a space, `%XX` a UTF-8 byte; a broken escape is kept as typed. */
function decoded(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The UTM key a `key=value` pair sets (any case), or undefined for any other pair. */
function utmKeyOf(pair: string): UtmKey | undefined {
  const equals = pair.indexOf('=');
  const key = decoded(equals === -1 ? pair : pair.slice(0, equals)).toLowerCase();
  return UTM_KEYS.find((utm) => utm === key);
}

function valueIn(pair: string): string {
  const equals = pair.indexOf('=');
  return equals === -1 ? '' : decoded(pair.slice(equals + 1));
}

/** The five UTM values of a URL as typed, each '' when absent; a key given twice counts by its first. */
export function readUtm(text: string): UtmValues {
  const values: UtmValues = { utm_source: '', utm_medium: '', utm_campaign: '', utm_term: '', utm_content: '' };
  const seen = new Set<UtmKey>();
  for (const pair of parts(text.trim()).pairs) {
    const key = utmKeyOf(pair);
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    values[key] = valueIn(pair);
  }
  return values;
}

/** Whether the URL carries any of the five UTM parameters (even empty): the builder then starts open. */
export function hasUtm(text: string): boolean {
  return parts(text.trim()).pairs.some((pair) => utmKeyOf(pair) !== undefined);
}

/** Lone surrogates (half an emoji) cannot be encoded: each becomes U+FFFD, as a browser sends it, rather than throw. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The URL with `key` set to `value` (as typed, encoded): in the place of its first pair (any case of the key; any
 * later ones dropped), else after the other parameters; an empty value removes the parameter (and the `?` when
 * nothing is left). Nothing else of the text changes. The caller checks that the URL can be parsed (`destination`).
 */
export function writeUtm(text: string, key: UtmKey, value: string): string {
  const trimmed = text.trim();
  const { base, pairs, fragment } = parts(trimmed);
  const pair = `${key}=${encodeURIComponent(value.replace(LONE_SURROGATE, '\uFFFD'))}`;
  const first = pairs.findIndex((existing) => utmKeyOf(existing) === key);
  if (value === '' && first === -1) return trimmed;
  const kept = pairs.flatMap((existing, i) => {
    if (utmKeyOf(existing) !== key) return [existing];
    return i === first && value !== '' ? [pair] : [];
  });
  if (first === -1) {
    // "a=1&" ends in an empty pair: the new one takes its place rather than leave "&&" behind.
    if (kept.at(-1) === '') kept.pop();
    kept.push(pair);
  }
  return kept.length === 0 ? `${base}${fragment}` : `${base}?${kept.join('&')}${fragment}`;
}
