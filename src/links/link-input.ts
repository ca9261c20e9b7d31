// The checks of a link to make that need nothing but the input itself (no database, no
// caller): a request that fails them is refused before any work (decision 0017).
import { BriefError, type FieldError } from '../errors.js';
import { linkDestination } from '../net/normalize-url.js';
import type { StoredPreview, StoredRule } from '../storage/stores/links.js';
import { validateSlug } from './codes.js';
import { COMMENT_MAX_LENGTH, checkMaxVisits, checkPassword, optionalText, parseExpiry, TITLE_MAX_LENGTH } from './link-fields.js';
import { checkPreview } from './link-preview.js';
import { checkRules, type RuleInput } from './link-rules.js';
import type { PreviewInput } from './preview-schemas.js';
import { checkTags } from './tag-names.js';

/** A link to make, as every version of the interface asks for one. */
export interface LinkInput {
  url: string;
  domain?: string;
  slug?: string;
  title?: string;
  comment?: string;
  password?: string;
  /** ISO 8601 timestamp in the future. */
  expiredAt?: string;
  /**
   * Return the caller's existing link to the URL (or the one already holding the slug, for the
   * same URL) instead of making a new one. v2 always does; v3 when asked. A link with a
   * password or an expiry, or that does not forward query strings, is always a new one.
   */
  reuseExisting?: boolean;
  /** false: the redirect drops a visitor's query string instead of adding it to the destination's (decision 0015). */
  forwardQuery?: boolean;
  /** Redirect rules (decision 0039): the first whose conditions all match chooses the destination. */
  rules?: readonly RuleInput[];
  /** Past this many counted visits (bots excluded) the link answers 410; null or absent: no limit. */
  maxVisits?: number | null;
  /** Its tags' names (decision 0040); absent: none. */
  tags?: readonly string[];
  /** The card preview fetchers get (decision 0041); null or absent: none. */
  preview?: PreviewInput;
}

/** A link input whose fields passed their checks: what is left can fail only at write time. */
export interface CheckedLink {
  readonly url: URL;
  readonly domain: string | undefined;
  readonly slug: string | null;
  readonly title: string | null;
  readonly comment: string | null;
  readonly password: string | null;
  /** Epoch milliseconds. */
  readonly expiresAt: number | null;
  readonly reuseExisting: boolean;
  readonly forwardQuery: boolean;
  /** Checked, their targets normalized; empty: none. */
  readonly rules: readonly StoredRule[];
  /** null: no visit limit. */
  readonly maxVisits: number | null;
  /** Checked and trimmed; empty: none. */
  readonly tags: readonly string[];
  /** null: no card. */
  readonly preview: StoredPreview | null;
}

/** The field errors of a validation error; any other error is thrown on. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (error instanceof BriefError && error.code === 'E_VALIDATION_ERROR' && error.errors) return error.errors;
  throw error;
}

/**
 * Checks every field of a link to make; one validation error lists every field that failed
 * (its message is the first one's).
 */
export function checkLinkInput(input: LinkInput, allowCredentials: boolean, now = Date.now()): CheckedLink {
  const errors: FieldError[] = [];
  const field = <T>(check: () => T): T | null => {
    try {
      return check();
    } catch (error) {
      errors.push(...fieldErrorsOf(error));
      return null;
    }
  };
  const { slug, password, expiredAt } = input;
  const checked = {
    url: field(() => linkDestination(input.url, allowCredentials)),
    domain: input.domain || undefined,
    title: field(() => optionalText('title', input.title, TITLE_MAX_LENGTH)),
    comment: field(() => optionalText('comment', input.comment, COMMENT_MAX_LENGTH)),
    slug: slug ? field(() => validateSlug(slug)) : null,
    password: password ? field(() => checkPassword(password)) : null,
    expiresAt: expiredAt ? field(() => parseExpiry(expiredAt, now)) : null,
    reuseExisting: input.reuseExisting === true,
    forwardQuery: input.forwardQuery !== false,
    rules: input.rules === undefined ? [] : (field(() => checkRules(input.rules!, allowCredentials)) ?? []),
    maxVisits: input.maxVisits === undefined ? null : field(() => checkMaxVisits(input.maxVisits)),
    tags: input.tags === undefined ? [] : (field(() => checkTags(input.tags!)) ?? []),
    preview: input.preview === undefined ? null : field(() => checkPreview(input.preview!, allowCredentials)),
  };
  const [first] = errors;
  if (first) throw new BriefError('E_VALIDATION_ERROR', first.message, errors);
  return { ...checked, url: checked.url as URL };
}
