// The errors of accounts and of who is calling, declared once (decision 0037): account-service.ts, the edge
// (http/auth.ts) and the features that need a token or a workspace throw them, and the API document shows
// them. A role's and a scope's refusals are worded beside the tables they name (roles.ts, scopes.ts).
import { BriefError, declareError } from '../errors.js';

export const ACCOUNT_ERRORS = {
  workspaceNotFound: declareError('A workspaceId that is not the caller’s', () => BriefError.notFound('Workspace not found')),
  tokenRequired: declareError('No token: this call is for an account', () => BriefError.unauthorized('This call needs a bearer token')),
  badName: () => BriefError.invalid('name', 'regex', 'Account names are 1-64 letters, digits, "_", ".", "@" or "-", starting with a letter or digit'),
  nameTaken: (name: string) => BriefError.invalid('name', 'unique', `Account "${name}" already exists`),
  /** `brief` commands name accounts; cli/cli-support.ts tells this one from other not-found errors by its first words. */
  noSuchAccount: (name: string) => BriefError.notFound(`No account named "${name}"`),
};
