// The errors of the redirect's own calls, declared once (decision 0037): the evaluation of a visit refuses what
// it cannot stand for.
import { BriefError, declareError } from '../errors.js';

export const REDIRECT_ERRORS = {
  notAnAddress: declareError(
    'An ip that is not an address',
    (field: string) => BriefError.invalid(field, 'ip', `The ${field} field must be an IPv4 or IPv6 address`),
    'ip',
  ),
};
