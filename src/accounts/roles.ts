// What each role in a workspace may do (decision 0028). Each role may do all the roles below it
// may, and more: a viewer reads links and analytics; a member also makes, edits and deletes the
// workspace's links and sees its tokens; an admin also manages tokens, members, domains and webhooks; an owner
// also the workspace itself. Reads are open to every role but the token list (it names who made each
// token, and a viewer has no use for it), so only changes and that read are named here.
// No Node modules and no storage here: the web app's typecheck reads this file (through tokens/schemas.ts).
import { BriefError, declareError } from '../errors.js';

/** The roles the database holds (storage's RoleName and ROLE_NAMES, checked by a constraint; test/accounts/roles.test.ts says they agree). */
export type Role = 'viewer' | 'member' | 'admin' | 'owner';

/** Weakest first. */
export const ROLES: readonly Role[] = ['viewer', 'member', 'admin', 'owner'];

/** A change a role may or may not make. */
export type Action = 'links:write' | 'tokens:read' | 'domains:write' | 'webhooks:write' | 'tokens:write' | 'members:write' | 'workspace:write';

const LEAST_ROLE: Readonly<Record<Action, Role>> = {
  'links:write': 'member',
  'tokens:read': 'member',
  'domains:write': 'admin',
  'webhooks:write': 'admin',
  'tokens:write': 'admin',
  'members:write': 'admin',
  'workspace:write': 'owner',
};

const WHAT: Readonly<Record<Action, string>> = {
  'links:write': "make, edit or delete the workspace's links",
  'tokens:read': "list the workspace's tokens",
  'domains:write': "manage the workspace's domains",
  'webhooks:write': "manage the workspace's webhooks",
  'tokens:write': "manage the workspace's tokens",
  'members:write': "manage the workspace's members",
  'workspace:write': 'change the workspace',
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Whether a role is at least another (the same or above it). */
export const atLeast = (role: Role, least: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(least);

/** The weaker of two roles: what a token acts with, capped by its maker's role now. */
export const lowerRole = (a: Role, b: Role): Role => (atLeast(a, b) ? b : a);

/** Whether a role may make a change. */
export function mayDo(role: Role, action: Action): boolean {
  return atLeast(role, LEAST_ROLE[action]);
}

/**
 * Refuses a change the caller's role does not allow (403 E_FORBIDDEN): the caller sees the
 * workspace's data, so the refusal may say why. A caller without a role (the anonymous account, the
 * server's own callers) has every right it had before roles; a token has the role it acts with.
 */
export function requireRole(caller: { readonly role?: Role | undefined }, action: Action): void {
  if (caller.role === undefined || mayDo(caller.role, action)) return;
  throw ROLE_ERRORS.forbidden(caller.role, action);
}

/** A role named by a person (the API, the CLI): one of the four, else a validation error. */
export function parseRole(value: string, field = 'role'): Role {
  if (isRole(value)) return value;
  throw ROLE_ERRORS.notARole(field);
}

/** A role's refusals, declared once (decision 0037): worded here, from the tables above. */
export const ROLE_ERRORS = {
  forbidden: declareError(
    'A role that may see but not do this',
    (role: Role, action: Action) => BriefError.forbidden(`A ${role} may not ${WHAT[action]}; this needs the ${LEAST_ROLE[action]} role or above`),
    'viewer',
    'links:write',
  ),
  notARole: declareError(
    'Not a role',
    (field: string) => BriefError.invalid(field, 'enum', `The ${field} field must be one of ${ROLES.join(', ')}`),
    'role',
  ),
};
