// The errors of a URL given to Brief (a link's destination, a domain's redirect, a QR code's text),
// declared once (decision 0037): normalize-url.ts throws them, naming the field the URL came in.
import { BriefError, declareError, required } from '../errors.js';

export const URL_ERRORS = {
  missing: declareError('A required parameter is missing', (field: string) => BriefError.field(required(field)), 'url'),
  invalid: declareError(
    'Not an absolute http(s) URL',
    (field: string) => BriefError.invalid(field, 'url', `The ${field} field must be a valid URL`),
    'url',
  ),
  credentials: declareError(
    'A user name or password in the URL',
    (field: string) =>
      BriefError.invalid(
        field,
        'credentials',
        `The ${field} field must not contain a user name or password (https://user:pass@host/): everyone who has the short link would see them`,
      ),
    'url',
  ),
};
