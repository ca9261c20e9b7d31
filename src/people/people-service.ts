// People and invitations (decision 0028): `brief user create|list|remove`, and an admin's invitation
// of someone by email and role. Brief sends no mail: an invitation is a one-time link to hand over,
// valid 7 days, that lets its holder set a password and join the workspace with the role.

import type { AccountService } from '../accounts/account-service.js';
import { type Caller, makerOf, mayReadEmails } from '../accounts/caller.js';
import { type Role, requireRole } from '../accounts/roles.js';
import { forbiddenFor, missingScopes } from '../accounts/scopes.js';
import { BriefError, required } from '../errors.js';
import { PasswordPool } from '../passwords/password-pool.js';
import type { PasswordStore } from '../storage/stores/passwords.js';
import type { InvitationRecord, PeopleStore } from '../storage/stores/people.js';
import { hashToken } from '../tokens/token-secrets.js';
import { checkEmail } from './emails.js';
import { newOneTimeLink, type OneTimeLink, secretHash } from './one-time-links.js';
import { PEOPLE_ERRORS } from './people-errors.js';
import type { Member } from './schemas.js';
import { checkNewPassword, type UserPasswords, uncountedUserPasswords } from './user-passwords.js';

export const INVITATION_DAYS = 7;
/** Wrong passwords an invitation takes from someone who signs in already; then it is used up. */
export const INVITATION_WRONG_PASSWORDS = 5;
const DAY_MS = 86_400_000;

export interface Invitation extends OneTimeLink {
  readonly role: Role;
  readonly workspace: string;
}

/**
 * Only an owner makes someone an owner or changes an owner's role (or removes one): an admin manages
 * the admins, members and viewers. The last owner stays, whoever asks (the store's `last-owner`).
 */
function requireMayChange(caller: Caller, current: Role, next: Role | null): void {
  requireRole(caller, current === 'owner' || next === 'owner' ? 'workspace:write' : 'members:write');
}

/**
 * A token manages people only with every scope, as it manages tokens (decision 0029): a narrow token
 * could otherwise invite or promote someone to more than it may do itself. People have no scopes.
 */
function requireFullToken(caller: Caller): void {
  const missing = missingScopes(caller.scopes, 'every');
  if (missing.length > 0) throw forbiddenFor(missing, 'every');
}

export class PeopleService {
  constructor(
    private readonly store: PeopleStore,
    private readonly accounts: Pick<AccountService, 'byName' | 'create'>,
    /** BASE_URL's prefix: invitation links open the web app there. */
    private readonly appPrefix: string,
    /** People's passwords: each check counted per email, every hash on the bounded threads. */
    private readonly passwords: UserPasswords = uncountedUserPasswords(new PasswordPool()),
    /** The wrong passwords an invitation was given (none counted without it: a test's service). */
    private readonly invitationAttempts?: Pick<PasswordStore, 'addWrongInvitationPassword' | 'invitationWrongPasswords'>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `brief user create`: a person in a workspace (made when missing, named after the email when not
   * given). With a password, the person can sign in at once; without, an invitation link is returned
   * instead and the person is made when it is accepted. An email that exists already joins the
   * workspace with the role and keeps its password (`existing`). Everything is checked before anything
   * is made.
   */
  async createUser(options: {
    email: string;
    role: Role;
    workspace?: string;
    password?: string;
  }): Promise<{ invitation?: Invitation; existing?: boolean }> {
    const email = checkEmail(options.email);
    const password = options.password === undefined ? undefined : checkNewPassword(options.password);
    const existing = await this.store.userByEmail(email);
    const workspaceName = options.workspace ?? email.toLowerCase();
    if (existing) {
      // Someone who signs in already joins another workspace: no second password, no invitation needed.
      const workspace = await this.accounts.byName(workspaceName).catch((error: unknown) => {
        if (error instanceof BriefError && error.code === 'E_NOT_FOUND') return undefined;
        throw error;
      });
      const role = workspace && (await this.store.roleIn(existing.id, workspace.id));
      if (role) throw PEOPLE_ERRORS.memberAlready(existing.email, workspace.name, role);
      const target = workspace ?? (await this.accounts.create(workspaceName));
      if ((await this.store.addMembership(existing.id, target.id, options.role)) === 'member') {
        throw PEOPLE_ERRORS.memberAlready(existing.email, target.name);
      }
      return { existing: true };
    }
    const workspace = await this.accounts.byName(workspaceName).catch(async (error: unknown) => {
      if (error instanceof BriefError && error.code === 'E_NOT_FOUND') return this.accounts.create(workspaceName);
      throw error;
    });
    if (password === undefined) return { invitation: await this.addInvitation(workspace.id, email, options.role, null) };
    const made = await this.store.createUser(
      { email, displayName: null, passwordHash: await this.passwords.hash(password) },
      workspace.id,
      options.role,
    );
    if (!made) throw PEOPLE_ERRORS.emailTaken(email);
    return {};
  }

  /** Every user with its workspaces and roles. */
  list() {
    return this.store.listUsers();
  }

  /**
   * A workspace's members (every role may see them). Their emails are people's data: a token reads them only
   * with members:read, which admin and owner tokens hold (403 otherwise).
   */
  async members(caller: Caller) {
    if (!mayReadEmails(caller)) throw forbiddenFor(['members:read'], 'members:read');
    const users = await this.store.listUsers(caller.accountId);
    return users.map((user): Member => ({ id: user.id, email: user.email, displayName: user.displayName, role: user.memberships[0]!.role }));
  }

  /**
   * Changes a member's role (admin; only an owner touches the owner role). Another workspace's person
   * is not found for every role; the last owner cannot be demoted.
   */
  async changeRole(caller: Caller, userId: number, role: Role): Promise<Member> {
    await this.changeMembership(caller, userId, role);
    const user = await this.store.userById(userId);
    if (!user) throw PEOPLE_ERRORS.memberNotFound();
    return { id: user.id, email: user.email, displayName: user.displayName, role };
  }

  /**
   * Removes a member from the caller's workspace: ends their sessions in it and revokes the tokens and pending
   * invitations they made there, in the same transaction; never the last owner.
   */
  async removeMember(caller: Caller, userId: number): Promise<void> {
    await this.changeMembership(caller, userId, null);
  }

  /** A member's new role, or (null) their removal, as the caller may make it: what changeRole and removeMember share. */
  private async changeMembership(caller: Caller, userId: number, role: Role | null): Promise<void> {
    if (caller.anonymous) throw PEOPLE_ERRORS.needsCaller();
    requireFullToken(caller);
    const outcome = await this.store.changeMembership(caller.accountId, userId, role, (current) => requireMayChange(caller, current, role));
    if (outcome === 'missing') throw PEOPLE_ERRORS.memberNotFound();
    if (outcome === 'last-owner') throw role === null ? PEOPLE_ERRORS.lastOwnerRemoved() : PEOPLE_ERRORS.lastOwnerDemoted();
  }

  /**
   * `brief user remove`: the person, their memberships and sessions, and the tokens and pending invitations they
   * made in every workspace (revoked); never a workspace's last owner.
   */
  async remove(rawEmail: string): Promise<void> {
    const email = rawEmail.trim();
    const user = await this.store.userByEmail(email);
    const outcome = user ? await this.store.removeUser(user.id) : 'missing';
    if (outcome === 'missing') throw PEOPLE_ERRORS.noUser(email);
    if (outcome !== 'removed') throw PEOPLE_ERRORS.lastOwnerOf(email, outcome.lastOwnerOf);
  }

  /**
   * An admin (or an owner, for the owner role) invites someone into the caller's workspace. The invitation
   * remembers who issued it (the person, or a token's maker): it is revoked when they are removed, or lowered
   * below the role it grants.
   */
  async invite(caller: Caller, rawEmail: string, role: Role): Promise<Invitation> {
    if (caller.anonymous) throw PEOPLE_ERRORS.inviteNeedsCaller();
    requireFullToken(caller);
    requireRole(caller, role === 'owner' ? 'workspace:write' : 'members:write');
    return this.addInvitation(caller.accountId, checkEmail(rawEmail), role, makerOf(caller));
  }

  /** An invitation that may still be accepted, by its secret: who it is for, where, with which role. */
  async invitation(token: string): Promise<InvitationRecord> {
    const tokenHash = secretHash(token);
    const found = tokenHash && (await this.store.invitationByHash(tokenHash));
    if (!found) throw PEOPLE_ERRORS.noInvitation();
    if (found.usedAt !== null) {
      const wrong = (await this.invitationAttempts?.invitationWrongPasswords(hashToken(token))) ?? 0;
      if (wrong >= INVITATION_WRONG_PASSWORDS) throw PEOPLE_ERRORS.invitationUsedUp(INVITATION_WRONG_PASSWORDS);
      throw PEOPLE_ERRORS.invitationUsed();
    }
    if (found.revokedAt !== null) throw PEOPLE_ERRORS.invitationWithdrawn();
    if (found.expiresAt <= this.now()) throw PEOPLE_ERRORS.invitationExpired();
    return found;
  }

  /** An invitation for the page that accepts it, with whether its email is someone's already (then no new password is set). */
  async describeInvitation(token: string): Promise<InvitationRecord & { existingUser: boolean }> {
    const found = await this.invitation(token);
    return { ...found, existingUser: (await this.store.userByEmail(found.email)) !== undefined };
  }

  /**
   * Accepts an invitation once: a new person sets a password and joins with the role. Someone who has a
   * password already joins by giving it (checked as a sign-in is: no second password from a link), or by
   * being signed in as the invitation's email (`signedInAs`: then no password is asked).
   */
  async accept(
    token: string,
    password: string | undefined,
    displayName?: string,
    signedInAs?: number,
  ): Promise<{ userId: number; accountId: number }> {
    const invitation = await this.invitation(token);
    const existing = await this.store.userByEmail(invitation.email);
    if (existing) {
      // Never a password set by a link for someone who exists: its holder would get into their account.
      if (signedInAs !== existing.id) {
        if (existing.passwordHash === null) {
          throw PEOPLE_ERRORS.inviteePasswordless(existing.email);
        }
        // Counted against the invitee's email, as a sign-in is; and against the invitation, which ends after a few.
        if (!(await this.passwords.verify(invitation.email, password ?? '', existing.passwordHash))) {
          const wrong = (await this.invitationAttempts?.addWrongInvitationPassword(hashToken(token), this.now(), INVITATION_WRONG_PASSWORDS)) ?? 0;
          if (wrong >= INVITATION_WRONG_PASSWORDS) throw PEOPLE_ERRORS.inviteePasswordLast(existing.email, INVITATION_WRONG_PASSWORDS);
          throw PEOPLE_ERRORS.inviteePasswordWrong(existing.email);
        }
      }
      return this.claim(token, invitation, { existingUserId: existing.id });
    }
    if (password === undefined) throw BriefError.field(required('password'));
    const passwordHash = await this.passwords.hash(checkNewPassword(password));
    const name = displayName?.trim() || null;
    return this.claim(token, invitation, { email: invitation.email, displayName: name, passwordHash });
  }

  private async claim(
    token: string,
    invitation: InvitationRecord,
    user: Parameters<PeopleStore['acceptInvitation']>[2],
  ): Promise<{ userId: number; accountId: number }> {
    const outcome = await this.store.acceptInvitation(hashToken(token), this.now(), user);
    if (outcome === 'used') throw PEOPLE_ERRORS.invitationUsed();
    if (outcome === 'taken') throw PEOPLE_ERRORS.inviteeSignsIn(invitation.email);
    return { userId: outcome.user.id, accountId: outcome.accountId };
  }

  /** `createdBy`: who issues it (null: the operator). */
  private async addInvitation(accountId: number, email: string, role: Role, createdBy: number | null): Promise<Invitation> {
    const { link, tokenHash } = newOneTimeLink(this.appPrefix, 'invitation');
    const now = this.now();
    const record = await this.store.addInvitation({
      tokenHash,
      accountId,
      email,
      role,
      now,
      expiresAt: now + INVITATION_DAYS * DAY_MS,
      createdBy,
    });
    // Its maker was removed, or lowered below the role, while this call ran.
    if (!record) throw PEOPLE_ERRORS.inviterBelow(role);
    return { link, email, role, workspace: record.accountName, expiresAt: record.expiresAt };
  }
}
