// The errors of API tokens, declared once (decision 0037): token-service.ts and token-scopes.ts throw them,
// and the /v3/tokens routes show them in the API document.
import type { Role } from '../accounts/roles.js';
import { SCOPES } from '../accounts/scopes.js';
import { BriefError, declareError } from '../errors.js';

export const TOKEN_ERRORS = {
  notFound: declareError("Not a live token of the caller's workspace", () => BriefError.notFound('Token not found')),
  /** `brief token revoke`: no token, or one revoked already. */
  noActiveToken: (id: number) => BriefError.notFound(`No active token with id ${id}`),
  anonymousAccount: () => BriefError.invalid('account', 'anonymous', 'The anonymous account cannot have tokens'),
  emptyName: declareError('An empty name', () => BriefError.invalid('name', 'required', 'The name field must not be empty')),
  controlInName: () => BriefError.invalid('name', 'regex', 'The name field must not contain control characters'),
  unknownScope: declareError(
    'A scope that does not exist',
    (field: string, scope: string) => BriefError.invalid(field, 'enum', `Unknown scope "${scope}": the scopes are ${SCOPES.join(', ')}`),
    'scopes',
    'links:delete',
  ),
  noScope: declareError(
    'An empty list of scopes',
    (field: string) => BriefError.invalid(field, 'minItems', 'Choose at least one scope (a token made without any has them all)'),
    'scopes',
  ),
  /** A scope the token's role may not hold (members:read below admin): it would be made without it. */
  scopeAboveRole: (field: string, role: Role, scope: string, least: Role) =>
    BriefError.invalid(field, 'role', `A token that acts as ${role} cannot hold ${scope}: it needs the ${least} role or above`),
  aboveMaker: (role: Role) =>
    BriefError.forbidden(`A token cannot act above whoever makes it: this caller acts as ${role}, so ask for ${role} or below`),
  /** Its maker was removed from the workspace while the call ran. */
  makerGone: () => BriefError.unauthorized('This call needs a member of the workspace'),
};
