import { BriefError, tooLong } from '../errors.js';
import { RESERVED_KEYS } from '../storage/stores/links.js';
import { LINK_ERRORS } from './link-errors.js';

export const SLUG_MAX_LENGTH = 64;
/** What may stand after the domain in a short URL: a slug, or a generated code. */
export const LINK_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** First path segments that belong to Brief itself (now or on the roadmap), never to a link; no code is ever one either. */
export const RESERVED_SLUGS = RESERVED_KEYS;

const ALPHANUMERIC = /^[0-9A-Za-z]+$/;

/**
 * A slug that looks like the codes made on its domain: exactly as many letters and digits as
 * its code length. Every such string is the code of some id, now or later (decision 0026).
 */
export function hasCodeShape(slug: string, codeLength: number): boolean {
  return slug.length === codeLength && ALPHANUMERIC.test(slug);
}

/** Checks a requested slug; slugs are case-sensitive, reserved words are refused in any case. */
export function validateSlug(slug: string): string {
  if (slug.length > SLUG_MAX_LENGTH) {
    throw BriefError.field(tooLong('slug', SLUG_MAX_LENGTH));
  }
  if (!LINK_KEY.test(slug)) throw LINK_ERRORS.slugFormat();
  if (RESERVED_SLUGS.has(slug.toLowerCase())) throw LINK_ERRORS.slugReserved();
  return slug;
}

/** Refuses a slug where the domain's generated codes live (decision 0026): they share one namespace. */
export function refuseCodeShapedSlug(slug: string | null, codeLength: number): void {
  if (slug !== null && hasCodeShape(slug, codeLength)) throw LINK_ERRORS.codeShapedSlug(codeLength);
}
