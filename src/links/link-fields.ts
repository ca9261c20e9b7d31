// Checks of a link's optional fields, shared by every way of making or editing one, and the errors of
// an expiry, declared here (decision 0037) rather than in link-errors.ts: the web app's typecheck reads
// this file (through v3-schemas.ts), so it imports nothing but leaves: errors.ts and iso-instants.ts.
import { BriefError, badFormat, declareError, tooLong, tooShort } from '../errors.js';
import { existsOnTheCalendar, ISO_TIMESTAMP } from '../iso-instants.js';

export const TITLE_MAX_LENGTH = 512;
export const COMMENT_MAX_LENGTH = 1024;
/** A link card's description (decision 0041), at most. */
export const PREVIEW_DESCRIPTION_MAX_LENGTH = 1024;
export const SEARCH_MAX_LENGTH = 200;
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 1024;
/** Conditions in one redirect rule, at most (they all must match: more would be a rule no visit meets). */
export const MAX_CONDITIONS = 10;
/** Targets of an A/B split: at least two (else it is a url), at most this many. */
export const MAX_SPLIT_TARGETS = 10;

/** A visit limit, at most: what an integer column holds on both engines. */
export const MAX_VISITS_LIMIT = 2_147_483_647;

/** A link's visit limit (`maxVisits`): a whole number from 1 to MAX_VISITS_LIMIT, or null for none. */
export function checkMaxVisits(value: unknown, field = 'maxVisits'): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_VISITS_LIMIT)
    throw VISIT_LIMIT_ERRORS.notAPositiveInteger(field);
  return value;
}

/** The visit limit's error. */
export const VISIT_LIMIT_ERRORS = {
  notAPositiveInteger: declareError(
    'A visit limit that is not a whole number from 1 to 2147483647',
    (field: string) =>
      BriefError.invalid(field, 'positiveInteger', `The ${field} field must be a whole number from 1 to ${MAX_VISITS_LIMIT}, or null`),
    'maxVisits',
  ),
};

/** A free-text field: empty is none; bounded; no NUL (PostgreSQL cannot store it in text). */
export function optionalText(field: string, value: string | null | undefined, maxLength: number): string | null {
  if (!value) return null;
  if (value.length > maxLength) throw BriefError.field(tooLong(field, maxLength));
  if (value.includes('\u0000')) throw BriefError.field(badFormat(field));
  return value;
}

/** A link password: at least 6 characters (and a sane upper bound, since it is hashed). */
export function checkPassword(password: string): string {
  if (password.length < PASSWORD_MIN_LENGTH) throw BriefError.field(tooShort('password', PASSWORD_MIN_LENGTH));
  if (password.length > PASSWORD_MAX_LENGTH) throw BriefError.field(tooLong('password', PASSWORD_MAX_LENGTH));
  return password;
}

/**
 * `expiredAt` (or another expiry field, named by `field`): an ISO 8601 timestamp with its zone, a date and
 * time that exist, in the future; epoch milliseconds.
 */
export function parseExpiry(value: string, now = Date.now(), field = 'expiredAt'): number {
  const at = parseInstant(value, field);
  if (at <= now) throw EXPIRY_ERRORS.past(field);
  return at;
}

/** An ISO 8601 timestamp with its zone, a date and time that exist (past or future); epoch milliseconds. */
export function parseInstant(value: string, field: string): number {
  const parts = ISO_TIMESTAMP.exec(value);
  if (parts && !existsOnTheCalendar(parts)) throw EXPIRY_ERRORS.impossibleDate(field, value);
  const at = parts ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw EXPIRY_ERRORS.notATimestamp(field);
  return at;
}

/** An expiry field's errors (a link's `expiredAt`, a token's `expiresAt`). */
export const EXPIRY_ERRORS = {
  impossibleDate: declareError(
    'A date that does not exist',
    (field: string, value: string) =>
      BriefError.invalid(
        field,
        'calendar',
        `The ${field} field must be a date and time that exist (month 1–12, a day of that month, hours 0–23, minutes and seconds 0–59), got "${value}"`,
      ),
    'expiredAt',
    '2027-02-30T00:00:00Z',
  ),
  notATimestamp: (field: string) => BriefError.invalid(field, 'date', `The ${field} field must be an ISO 8601 timestamp with a time zone`),
  past: declareError(
    'An expiry in the past',
    (field: string) => BriefError.invalid(field, 'future', `The ${field} field must be a date in the future`),
    'expiredAt',
  ),
};
