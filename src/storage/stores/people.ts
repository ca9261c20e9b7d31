// The people's contract (decision 0028): users, their roles in workspaces (accounts), sessions and
// invitations. Secrets (session ids, invitation links) are stored by hash; passwords as scrypt.
import type { RoleName } from '../tables.js';

export type { RoleName } from '../tables.js';

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
}

/** An invitation as it is made: the hash of its secret, the workspace, email and role, when it was made and until when it holds. */
export interface NewInvitation {
  readonly tokenHash: string;
  readonly accountId: number;
  readonly email: string;
  readonly role: RoleName;
  readonly now: number;
  readonly expiresAt: number;
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
   * Removes a user with its memberships and sessions: `missing` when there is none, and nothing is
   * removed while the user is the last owner of a workspace (`lastOwnerOf` names them).
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
   * Changes a member's role, or removes the member with their sessions in the workspace (`role: null`),
   * in one transaction that holds the workspace's membership changes back (a row lock on PostgreSQL,
   * the one writer on SQLite): `check` sees the member's role now and may throw to change nothing.
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

  addInvitation(invitation: NewInvitation): Promise<InvitationRecord>;
  invitationByHash(tokenHash: string): Promise<InvitationRecord | undefined>;
  /**
   * Uses an invitation once, in one transaction: marks it used (only if unused and unexpired at `now`),
   * makes its user (or sets the password of one who has none) and gives the role. `used` when someone
   * else used it first or it expired meanwhile; `taken` when the email already has a password. Given
   * `{ existingUserId }` (a person who proved who they are), it only adds that user's membership. A
   * person already in the workspace keeps their role.
   */
  acceptInvitation(
    tokenHash: string,
    now: number,
    user: NewUser | { readonly existingUserId: number },
  ): Promise<{ user: UserRecord; accountId: number; role: RoleName } | 'used' | 'taken'>;
}
