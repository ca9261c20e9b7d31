// The errors of the analytics calls' queries, declared once (decision 0037): analytics-service.ts throws them
// and the v3 analytics routes show them in the API document.
import { BriefError, declareError } from '../errors.js';

export const ANALYTICS_ERRORS = {
  timezone: declareError('Not an IANA time zone', () =>
    BriefError.invalid('timezone', 'timezone', 'The timezone field must be an IANA time zone name, such as Europe/Paris'),
  ),
  link: declareError('A link that is not domain/slug', () => BriefError.invalid('link', 'link', 'The link field must be domain/slug')),
  linkRequired: declareError('top-rules without a link', () =>
    BriefError.invalid('link', 'required', "The link field must be defined for top-rules: the domain/slug of the link whose rules' clicks to count"),
  ),
  instant: (field: 'from' | 'to') =>
    BriefError.invalid(field, field, `The ${field} field must be an ISO timestamp with its offset, such as 2026-11-01T00:00:00Z`),
  fromMissing: () => BriefError.invalid('from', 'from', 'The from field is required with to: an ISO timestamp'),
  notAfterFrom: () => BriefError.invalid('to', 'to', 'The to field must be later than from'),
  rangeTooLong: () => BriefError.invalid('to', 'to', 'The to field must be at most 366 days after from'),
  hoursTooLong: () =>
    BriefError.invalid('to', 'to', 'The to field must be at most 31 days after from by hour: use granularity=day, or a shorter range'),
};
