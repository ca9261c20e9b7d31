import { PEOPLE_ERRORS } from './people-errors.js';

// An email address as people type it: something@a-domain.tld, no spaces, at most 254 characters.
// Brief sends no mail, so this is a check against typing mistakes, not a proof of delivery.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

/** A person's email, trimmed; a validation error when it is not one. */
export function checkEmail(raw: string, field = 'email'): string {
  const email = raw.trim();
  if (email.length > 254 || !EMAIL.test(email)) throw PEOPLE_ERRORS.badEmail(field);
  return email;
}
