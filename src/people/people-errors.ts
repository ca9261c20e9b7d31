// The errors of people, sessions, invitations and passwords, declared once (decision 0037): the people,
// session and password services and the /auth routes throw them (passkeys/ and sso/ too, for what they share),
// and the /auth routes show them in the API document.
import type { Role } from '../accounts/roles.js';
import { BriefError, declareError } from '../errors.js';

/** An invitation or reset link that cannot be used any more, with what to do about it. */
const spent = (what: string) => `${what}; ask for a new one`;

export const PEOPLE_ERRORS = {
  // Who is calling.
  notSignedIn: () => BriefError.unauthorized('Not signed in'),
  wrongCredentials: () => BriefError.unauthorized('Wrong email or password'),
  needsCaller: () => BriefError.unauthorized('This call needs a bearer token or a signed-in person'),
  inviteNeedsCaller: () => BriefError.unauthorized('Inviting needs a bearer token or a signed-in person'),
  switchNeedsSession: () => BriefError.unauthorized('Switching workspace needs a signed-in person (a session, not a token)'),
  changeNeedsSession: () => BriefError.unauthorized('Changing a password needs a signed-in person (a session, not a token)'),
  currentPasswordWrong: () => BriefError.unauthorized('The current password is wrong'),
  badEmail: declareError(
    'Not an email address',
    (field: string) => BriefError.invalid(field, 'email', `The ${field} field must be an email address`),
    'email',
  ),
  // Members.
  memberNotFound: declareError("Not a member of the caller's workspace", () => BriefError.notFound('Member not found')),
  lastOwnerDemoted: declareError('The last owner', () =>
    BriefError.invalid('role', 'lastOwner', 'The last owner of a workspace cannot be demoted: make someone else owner first'),
  ),
  lastOwnerRemoved: declareError('The last owner, removed', () =>
    BriefError.invalid('userId', 'lastOwner', 'The last owner of a workspace cannot be removed: make someone else owner first'),
  ),
  inviterBelow: (role: Role) => BriefError.forbidden(`Only a member with the ${role} role or above may invite someone as ${role}`),
  // Invitations (decision 0028).
  noInvitation: declareError('No invitation with this secret', () => BriefError.notFound('No such invitation: check that the whole link was copied')),
  invitationUsed: declareError('Used already', () => BriefError.invalid('token', 'used', spent('This invitation has been used already'))),
  invitationWithdrawn: () => BriefError.invalid('token', 'revoked', spent('This invitation has been withdrawn')),
  invitationExpired: declareError('Past its 7 days', () => BriefError.invalid('token', 'expired', spent('This invitation has expired'))),
  invitationUsedUp: declareError(
    'Used up by 5 wrong passwords',
    (wrong: number) => BriefError.invalid('token', 'usedUp', spent(`This invitation is used up: ${wrong} wrong passwords were given with it`)),
    5,
  ),
  /** The invitation's email became someone's while it was open: they sign in and are added instead. */
  inviteeSignsIn: (email: string) =>
    BriefError.invalid('token', 'taken', `${email} can sign in already: sign in and ask to be added to the workspace`),
  inviteePasswordless: (email: string) => BriefError.unauthorized(`${email} signs in without a password: sign in first, then open this link again`),
  inviteePasswordWrong: (email: string) => BriefError.unauthorized(`Wrong password for ${email}: give the password you sign in with`),
  inviteePasswordLast: (email: string, wrong: number) =>
    BriefError.unauthorized(`Wrong password for ${email}: that was the ${wrong}th, so this invitation is used up; ask for a new one`),
  // Reset links (decision 0034).
  noResetLink: declareError('No reset link with this secret', () => BriefError.notFound('No such reset link: check that the whole link was copied')),
  resetLinkUsed: declareError('Used already', () => BriefError.invalid('token', 'used', spent('This reset link has been used already'))),
  resetLinkExpired: declareError('Past its hour', () => BriefError.invalid('token', 'expired', spent('This reset link has expired'))),
  // `brief user …`: the operator's commands.
  noUser: (email: string) => BriefError.notFound(`No user with the email ${email}`),
  emailTaken: (email: string) => BriefError.invalid('email', 'unique', `A user with the email ${email} already exists`),
  memberAlready: (email: string, workspace: string, role?: Role) =>
    BriefError.invalid('email', 'unique', `${email} is already a member of ${workspace}${role === undefined ? '' : ` (${role})`}`),
  lastOwnerOf: (email: string, workspaces: readonly string[]) =>
    BriefError.invalid(
      'email',
      'lastOwner',
      `${email} is the last owner of ${workspaces.join(', ')}: make someone else owner first (brief user create EMAIL --workspace NAME --role owner)`,
    ),
};
