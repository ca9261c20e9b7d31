/** A language a visitor accepts: its tag, lower-case with `-` (`en-gb`), and its weight, over 0. */
export interface AcceptedLanguage {
  readonly tag: string;
  readonly q: number;
}

/** A language tag as Accept-Language and rules write it: letters, then subtags of letters and digits (BCP 47's shape). */
export const LANGUAGE_TAG = /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/;
/** The longest tag kept (BCP 47 advises room for 35 characters). */
export const LANGUAGE_TAG_MAX = 35;
/** The languages read from one header, at most: a browser sends a handful. */
const LANGUAGES_MAX = 32;

const NONE: readonly AcceptedLanguage[] = Object.freeze([]);

/** A tag in its one written form (`en_GB` → `en-gb`), or null when it is none. */
export function languageTag(text: string): string | null {
  const tag = text.trim().toLowerCase().replaceAll('_', '-');
  return tag.length <= LANGUAGE_TAG_MAX && LANGUAGE_TAG.test(tag) ? tag : null;
}

/**
 * Headers read, by their text: a browser sends the same one on every request and most visitors share a few, so
 * a visit reads its header in one lookup. Emptied when full: a crawl of made-up headers only empties it.
 */
const remembered = new Map<string, readonly AcceptedLanguage[]>();
const REMEMBERED_MAX = 1000;
/** A header longer than this is read each time rather than remembered. */
const REMEMBERED_LENGTH = 256;

/**
 * The languages an Accept-Language header accepts, most preferred first (equal weights in the header's order).
 * Left out: `q=0` (the visitor refuses it), `*` (no language in particular), a malformed tag or weight, and
 * what follows the first LANGUAGES_MAX entries. The list answered is shared: never change it.
 */
export function acceptedLanguages(header: string | undefined): readonly AcceptedLanguage[] {
  if (!header) return NONE;
  const known = remembered.get(header);
  if (known !== undefined) return known;
  const accepted = read(header);
  if (header.length <= REMEMBERED_LENGTH) {
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(header, accepted);
  }
  return accepted;
}

function read(header: string): readonly AcceptedLanguage[] {
  const accepted: AcceptedLanguage[] = [];
  const entries = header.split(',', LANGUAGES_MAX);
  for (const entry of entries) {
    const semicolon = entry.indexOf(';');
    const tag = languageTag(semicolon === -1 ? entry : entry.slice(0, semicolon));
    if (tag === null) continue;
    const q = semicolon === -1 ? 1 : weight(entry.slice(semicolon + 1));
    if (q > 0) accepted.push({ tag, q });
  }
  // Stable: equal weights keep the header's order.
  return Object.freeze(accepted.sort((a, b) => b.q - a.q));
}

/** The weight of `q=0.8` (RFC 9110: 0 to 1, at most three decimals); 0 for anything else, so a malformed entry is dropped. */
function weight(parameters: string): number {
  const match = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(parameters);
  return match ? Number(match[1]) : 0;
}
