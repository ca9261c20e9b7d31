// The people's contract (decision 0028): users, their roles in workspaces (accounts), sessions and
// invitations. Secrets (session ids, invitation links) are stored by hash; passwords as scrypt.
import type { RoleName } from '../tables.js';

export type { RoleName } from '../tables.js';

/** The roles, weakest first: what accounts/roles.ts ranks and the store compares (an invitation above a role). */
export const ROLE_NAMES: readonly RoleName[] = ['viewer', 'member', 'admin', 'owner'];

export interface UserRecord {
  readonly id: number;
  readonly email: string;
  readonly displayName: string | null;
  readonly hasPassword: boolean;
  readonly createdAt: number;
}

/** A user with its password hash, for sign-in only. */
export interface UserCredentials extends UserRecord {
  readonly passwordHash: string | null;
}

export interface MembershipRecord {
  readonly accountId: number;
  readonly accountName: string;
  readonly role: RoleName;
}

export interface SessionRecord {
  readonly userId: number;
  readonly accountId: number;
  /** The user's role in the session's workspace now (a role changed or removed counts at once). */
  readonly role: RoleName;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

export interface InvitationRecord {
  readonly id: number;
  readonly accountId: number;
  readonly accountName: string;
  readonly email: string;
  readonly role: RoleName;
  readonly expiresAt: number;
  readonly usedAt: number | null;
  /** When it was withdrawn: its maker removed, or lowered below the role it grants. */
  readonly revokedAt: number | null;
  /** Who issued it; null: the operator (`brief user create`), or made before makers were recorded. */
  readonly createdBy: number | null;
}

/**
 * An invitation as it is made: the hash of its secret, the workspace, email and role, when it was made and
 * until when it holds, and who issued it (null: the operator).
 */
export interface NewInvitation {
  readonly tokenHash: string;
  readonly accountId: number;
  readonly email: string;
  readonly role: RoleName;
  readonly now: number;
  readonly expiresAt: number;
  readonly createdBy: number | null;
}

export interface NewUser {
  readonly email: string;
  readonly displayName: string | null;
  readonly passwordHash: string | null;
}

export interface PeopleStore {
  /** A new user with a role in a workspace, in one transaction; undefined when the email is taken. */
  createUser(user: NewUser, accountId: number, role: RoleName): Promise<UserRecord | undefined>;
  /**
   * A new user as the `role` of a new workspace named `workspaceName`, both in one transaction (single
   * sign-on's OIDC_AUTO_CREATE): nothing is made when the email or the workspace's name is taken.
   */
  createUserInNewWorkspace(
    user: NewUser,
    workspaceName: string,
    role: RoleName,
  ): Promise<{ user: UserRecord; accountId: number } | 'email-taken' | 'name-taken'>;
  userByEmail(email: string): Promise<UserCredentials | undefined>;
  userById(id: number): Promise<UserRecord | undefined>;
  /** Every user, or a workspace's members, with their memberships. */
  listUsers(accountId?: number): Promise<Array<UserRecord & { memberships: MembershipRecord[] }>>;
  /**
   * Removes a user with its memberships and sessions, and revokes every token and pending invitation they
   * made, in every workspace, in one transaction: `missing` when there is none, and nothing is removed
   * while the user is the last owner of a workspace (`lastOwnerOf` names them).
   */
  removeUser(id: number): Promise<'removed' | 'missing' | { lastOwnerOf: string[] }>;
  membershipsOf(userId: number): Promise<MembershipRecord[]>;
  roleIn(userId: number, accountId: number): Promise<RoleName | undefined>;
  /**
   * Gives an existing user a role in another workspace; `member` when they have one there already
   * (their role is left as it is).
   */
  addMembership(userId: number, accountId: number, role: RoleName): Promise<'added' | 'member'>;
  /**
   * Changes a member's role, or removes the member (`role: null`), in one transaction that holds the
   * workspace's membership changes back (a row lock on PostgreSQL, the one writer on SQLite): `check` sees
   * the member's role now and may throw to change nothing. A removal also ends the member's sessions in the
   * workspace and revokes the tokens and pending invitations they made there; a role lowered revokes their
   * pending invitations there that grant a role above the new one (their tokens are capped at every use).
   * `missing` when the user is not a member; `last-owner` when the change would leave no owner.
   */
  changeMembership(
    accountId: number,
    userId: number,
    role: RoleName | null,
    check: (current: RoleName) => void,
  ): Promise<'changed' | 'missing' | 'last-owner'>;

  addSession(session: { idHash: string; userId: number; accountId: number; now: number }): Promise<void>;
  sessionByHash(idHash: string): Promise<SessionRecord | undefined>;
  touchSession(idHash: string, now: number): Promise<void>;
  /** Moves a session to another workspace the user belongs to. */
  switchSession(idHash: string, accountId: number): Promise<void>;
  removeSession(idHash: string): Promise<void>;

  /**
   * Stores an invitation. One a person issues is made only while their role in the workspace is at least the
   * role it grants, checked in the same write (undefined otherwise), so none outlives a removal or a role
   * lowered at the same moment.
   */
  addInvitation(invitation: NewInvitation): Promise<InvitationRecord | undefined>;
  invitationByHash(tokenHash: string): Promise<InvitationRecord | undefined>;
  /**
   * Uses an invitation once, in one transaction: marks it used (only if unused, unrevoked and unexpired at `now`),
   * makes its user (or sets the password of one who has none) and gives the role. `used` when someone
   * else used it first, or it expired or was revoked meanwhile; `taken` when the email already has a password. Given
   * `{ existingUserId }` (a person who proved who they are), it only adds that user's membership. A
   * person already in the workspace keeps their role.
   */
  acceptInvitation(
    tokenHash: string,
    now: number,
    user: NewUser | { readonly existingUserId: number },
  ): Promise<{ user: UserRecord; accountId: number; role: RoleName } | 'used' | 'taken'>;
}
