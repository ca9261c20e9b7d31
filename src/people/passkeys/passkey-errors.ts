// The errors of passkeys, declared once (decision 0037): passkey-service.ts throws them, and the passkey
// routes show them in the API document. What they share with a password's sign-in or an invitation
// (not signed in, an invitation used) is people-errors.ts'.
import { BriefError, declareError } from '../../errors.js';

/** The one answer to a failed passkey sign-in, whatever failed (unknown credential, bad signature, used challenge…). */
export const PASSKEY_REFUSED = 'The passkey was not accepted: try again, or sign in another way';

export const PASSKEY_ERRORS = {
  notFound: declareError('Not one of your passkeys', () => BriefError.notFound('Passkey not found')),
  refused: () => BriefError.unauthorized(PASSKEY_REFUSED),
  expiredRequest: declareError('A request that expired or was used', () =>
    BriefError.invalid('response', 'challenge', 'This passkey request has expired or was used already: add the passkey again'),
  ),
  /** `reason`: what the library found wrong, after a colon (`: Unexpected …`), or nothing. */
  notVerified: declareError(
    'An answer that does not verify',
    (reason: string) => BriefError.invalid('response', 'verification', `The passkey could not be verified${reason}`),
    '',
  ),
  registered: declareError('A passkey registered already', () => BriefError.invalid('response', 'unique', 'This passkey is registered already')),
};
