// People and invitations (decision 0028): `brief user create|list|remove`, and an admin's invitation
// of someone by email and role. Brief sends no mail: an invitation is a one-time link to hand over,
// valid 7 days, that lets its holder set a password and join the workspace with the role.
import { BriefError } from '../errors.js';
import type { InvitationRecord, PeopleStore } from '../storage/stores/people.js';
import type { AccountService, Caller } from './account-service.js';
import { checkEmail } from './emails.js';
import { type Role, requireRole } from './roles.js';
import { generateToken, hashToken } from './tokens.js';
import { checkNewPassword, hashUserPassword } from './user-passwords.js';

export const INVITATION_DAYS = 7;
const DAY_MS = 86_400_000;

export interface Invitation {
  /** The one-time link (its secret after `#`: never sent to a server's logs). */
  readonly link: string;
  readonly email: string;
  readonly role: Role;
  readonly workspace: string;
  readonly expiresAt: number;
}

export class PeopleService {
  constructor(
    private readonly store: PeopleStore,
    private readonly accounts: Pick<AccountService, 'byName' | 'create'>,
    /** BASE_URL's prefix: invitation links open the web app there. */
    private readonly appPrefix: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `brief user create`: a person in a workspace (made when missing, named after the email when not
   * given). With a password, the person can sign in at once; without, an invitation link is returned
   * instead and the person is made when it is accepted. Everything is checked before anything is made.
   */
  async createUser(options: { email: string; role: Role; workspace?: string; password?: string }): Promise<{ invitation?: Invitation }> {
    const email = checkEmail(options.email);
    const password = options.password === undefined ? undefined : checkNewPassword(options.password);
    if (await this.store.userByEmail(email)) throw BriefError.invalid('email', 'unique', `A user with the email ${email} already exists`);
    const workspaceName = options.workspace ?? email.toLowerCase();
    const workspace = await this.accounts.byName(workspaceName).catch(async (error: unknown) => {
      if (error instanceof BriefError && error.code === 'E_NOT_FOUND') return this.accounts.create(workspaceName);
      throw error;
    });
    if (password === undefined) return { invitation: await this.addInvitation(workspace.id, email, options.role) };
    const made = await this.store.createUser(
      { email, displayName: null, passwordHash: await hashUserPassword(password) },
      workspace.id,
      options.role,
    );
    if (!made) throw BriefError.invalid('email', 'unique', `A user with the email ${email} already exists`);
    return {};
  }

  /** Every user with its workspaces and roles. */
  list() {
    return this.store.listUsers();
  }

  /** A workspace's members (every role may see them). */
  async members(caller: Caller) {
    const users = await this.store.listUsers(caller.accountId);
    return users.map((user) => ({ email: user.email, displayName: user.displayName, role: user.memberships[0]!.role }));
  }

  /** `brief user remove`: the person, their memberships and sessions. */
  async remove(rawEmail: string): Promise<void> {
    const user = await this.store.userByEmail(rawEmail.trim());
    if (!user || !(await this.store.removeUser(user.id))) throw BriefError.notFound(`No user with the email ${rawEmail.trim()}`);
  }

  /** An admin (or an owner, for the owner role) invites someone into the caller's workspace. */
  async invite(caller: Caller, rawEmail: string, role: Role): Promise<Invitation> {
    if (caller.anonymous) throw BriefError.unauthorized('Inviting needs a bearer token or a signed-in person');
    requireRole(caller, role === 'owner' ? 'workspace:write' : 'members:write');
    return this.addInvitation(caller.accountId, checkEmail(rawEmail), role);
  }

  /** An invitation that may still be accepted, by its secret: who it is for, where, with which role. */
  async invitation(token: string): Promise<InvitationRecord> {
    const found = typeof token === 'string' && token.length <= 512 ? await this.store.invitationByHash(hashToken(token)) : undefined;
    if (!found) throw BriefError.notFound('No such invitation: check that the whole link was copied');
    if (found.usedAt !== null) throw BriefError.invalid('token', 'used', 'This invitation has been used already; ask for a new one');
    if (found.expiresAt <= this.now()) throw BriefError.invalid('token', 'expired', 'This invitation has expired; ask for a new one');
    return found;
  }

  /** Accepts an invitation once: the person sets a password and joins with the role. */
  async accept(token: string, password: string, displayName?: string): Promise<{ userId: number; accountId: number }> {
    const invitation = await this.invitation(token);
    const passwordHash = await hashUserPassword(checkNewPassword(password));
    const name = displayName?.trim() || null;
    const outcome = await this.store.acceptInvitation(hashToken(token), this.now(), { email: invitation.email, displayName: name, passwordHash });
    if (outcome === 'used') throw BriefError.invalid('token', 'used', 'This invitation has been used already; ask for a new one');
    if (outcome === 'taken') {
      throw BriefError.invalid('token', 'taken', `${invitation.email} can sign in already: sign in and ask to be added to the workspace`);
    }
    return { userId: outcome.user.id, accountId: outcome.accountId };
  }

  private async addInvitation(accountId: number, email: string, role: Role): Promise<Invitation> {
    const token = generateToken();
    const now = this.now();
    const record = await this.store.addInvitation({
      tokenHash: hashToken(token),
      accountId,
      email,
      role,
      now,
      expiresAt: now + INVITATION_DAYS * DAY_MS,
    });
    return { link: `${this.appPrefix}/app/invitation#${token}`, email, role, workspace: record.accountName, expiresAt: record.expiresAt };
  }
}
