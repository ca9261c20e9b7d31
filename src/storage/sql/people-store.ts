import type { Connection } from '../connection.js';
import type {
  InvitationRecord,
  MembershipRecord,
  NewInvitation,
  NewUser,
  PeopleStore,
  RoleName,
  SessionRecord,
  UserCredentials,
  UserRecord,
} from '../stores/people.js';
import { ROLE_NAMES } from '../stores/people.js';
import {
  addMembership,
  canSignIn,
  changeMembership,
  claimInvitation,
  joinOnce,
  revokeWhatTheyMade,
  roleHeldFor,
  soleOwnerships,
  TakenEmail,
} from './memberships.js';
import { emailKey, insertUser, toUser } from './users.js';
import type { WorkspaceLocks } from './workspace-locks.js';

/** People, their memberships, sessions and invitations, in the same SQL on both dialects. */
export class SqlPeopleStore implements PeopleStore {
  constructor(
    private readonly connection: Connection,
    private readonly locks: WorkspaceLocks,
  ) {}

  async createUser(user: NewUser, accountId: number, role: RoleName): Promise<UserRecord | undefined> {
    return this.connection.write(async (db) => {
      const row = await insertUser(db, user);
      if (!row) return undefined;
      await db.insertInto('memberships').values({ user_id: row.id, account_id: accountId, role, created_at: Date.now() }).execute();
      return toUser(row);
    });
  }

  async createUserInNewWorkspace(
    user: NewUser,
    workspaceName: string,
    role: RoleName,
  ): Promise<{ user: UserRecord; accountId: number } | 'email-taken' | 'name-taken'> {
    return this.connection
      .write(async (db) => {
        const now = Date.now();
        const account = await db
          .insertInto('accounts')
          .values({ name: workspaceName, created_at: now })
          .onConflict((oc) => oc.column('name').doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!account) return 'name-taken' as const;
        const row = await insertUser(db, user);
        // Thrown, not returned: the workspace just made is rolled back with it.
        if (!row) throw new TakenEmail();
        await db.insertInto('memberships').values({ user_id: row.id, account_id: account.id, role, created_at: now }).execute();
        return { user: toUser(row), accountId: account.id };
      })
      .catch((error: unknown) => {
        if (error instanceof TakenEmail) return 'email-taken' as const;
        throw error;
      });
  }

  async userByEmail(email: string): Promise<UserCredentials | undefined> {
    const row = await this.connection.db.selectFrom('users').selectAll().where('email_key', '=', emailKey(email)).executeTakeFirst();
    return row && { ...toUser(row), passwordHash: row.password_hash };
  }

  async userById(id: number): Promise<UserRecord | undefined> {
    const row = await this.connection.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toUser(row);
  }

  async listUsers(accountId?: number): Promise<Array<UserRecord & { memberships: MembershipRecord[] }>> {
    let query = this.connection.db
      .selectFrom('users')
      .innerJoin('memberships', 'memberships.user_id', 'users.id')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .selectAll('users')
      .select(['memberships.account_id', 'memberships.role', 'accounts.name as account_name'])
      .orderBy('users.email_key')
      .orderBy('accounts.name');
    if (accountId !== undefined) query = query.where('memberships.account_id', '=', accountId);
    const rows = await query.execute();
    const users = new Map<number, UserRecord & { memberships: MembershipRecord[] }>();
    for (const row of rows) {
      const user = users.get(row.id) ?? { ...toUser(row), memberships: [] };
      users.set(row.id, user);
      user.memberships.push({ accountId: row.account_id, accountName: row.account_name, role: row.role });
    }
    return [...users.values()];
  }

  async removeUser(id: number): Promise<'removed' | 'missing' | { lastOwnerOf: string[] }> {
    return this.connection.write(async (db) => {
      const lastOwnerOf = await soleOwnerships(this.locks, db, id);
      if (lastOwnerOf.length > 0) return { lastOwnerOf };
      // Explicitly, not only by cascade: SQLite enforces foreign keys per connection.
      await db.deleteFrom('sessions').where('user_id', '=', id).execute();
      await revokeWhatTheyMade(db, id, undefined, Date.now());
      await db.deleteFrom('memberships').where('user_id', '=', id).execute();
      const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? 'removed' : 'missing';
    });
  }

  async membershipsOf(userId: number): Promise<MembershipRecord[]> {
    const rows = await this.connection.db
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['memberships.account_id', 'memberships.role', 'accounts.name'])
      .where('memberships.user_id', '=', userId)
      .orderBy('accounts.name')
      .execute();
    return rows.map((row) => ({ accountId: row.account_id, accountName: row.name, role: row.role }));
  }

  async roleIn(userId: number, accountId: number): Promise<RoleName | undefined> {
    const row = await this.connection.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', userId)
      .where('account_id', '=', accountId)
      .executeTakeFirst();
    return row?.role;
  }

  addMembership(userId: number, accountId: number, role: RoleName): Promise<'added' | 'member'> {
    return addMembership(this.connection, userId, accountId, role);
  }

  changeMembership(
    accountId: number,
    userId: number,
    role: RoleName | null,
    check: (current: RoleName) => void,
  ): Promise<'changed' | 'missing' | 'last-owner'> {
    return changeMembership(this.connection, this.locks, accountId, userId, role, check);
  }

  async addSession(session: { idHash: string; userId: number; accountId: number; now: number }): Promise<void> {
    await this.connection.write((db) =>
      db
        .insertInto('sessions')
        .values({
          id_hash: session.idHash,
          user_id: session.userId,
          account_id: session.accountId,
          created_at: session.now,
          last_seen_at: session.now,
        })
        .execute(),
    );
  }

  async sessionByHash(idHash: string): Promise<SessionRecord | undefined> {
    // One read: the session with the user's role in its workspace now.
    const row = await this.connection.db
      .selectFrom('sessions')
      .innerJoin('memberships', (join) =>
        join.onRef('memberships.user_id', '=', 'sessions.user_id').onRef('memberships.account_id', '=', 'sessions.account_id'),
      )
      .select(['sessions.user_id', 'sessions.account_id', 'sessions.created_at', 'sessions.last_seen_at', 'memberships.role'])
      .where('sessions.id_hash', '=', idHash)
      .executeTakeFirst();
    return row && { userId: row.user_id, accountId: row.account_id, role: row.role, createdAt: row.created_at, lastSeenAt: row.last_seen_at };
  }

  async touchSession(idHash: string, now: number): Promise<void> {
    await this.connection.write((db) => db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute());
  }

  async switchSession(idHash: string, accountId: number): Promise<void> {
    await this.connection.write((db) => db.updateTable('sessions').set({ account_id: accountId }).where('id_hash', '=', idHash).execute());
  }

  async removeSession(idHash: string): Promise<void> {
    await this.connection.write((db) => db.deleteFrom('sessions').where('id_hash', '=', idHash).execute());
  }

  async addInvitation(invitation: NewInvitation): Promise<InvitationRecord | undefined> {
    const row = await this.connection.write(async (db) => {
      if (invitation.createdBy !== null) {
        const held = await roleHeldFor(this.locks, db, invitation.accountId, invitation.createdBy);
        if (held === undefined || ROLE_NAMES.indexOf(held) < ROLE_NAMES.indexOf(invitation.role)) return undefined;
      }
      return db
        .insertInto('invitations')
        .values({
          token_hash: invitation.tokenHash,
          account_id: invitation.accountId,
          email: invitation.email,
          role: invitation.role,
          created_at: invitation.now,
          expires_at: invitation.expiresAt,
          used_at: null,
          created_by: invitation.createdBy,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    });
    if (!row) return undefined;
    const found = await this.invitationById(row.id);
    if (!found) throw new Error('the invitation just made is not there');
    return found;
  }

  async invitationByHash(tokenHash: string): Promise<InvitationRecord | undefined> {
    return this.invitationWhere('token_hash', tokenHash);
  }

  private invitationById(id: number): Promise<InvitationRecord | undefined> {
    return this.invitationWhere('id', id);
  }

  private async invitationWhere(column: 'id' | 'token_hash', value: string | number): Promise<InvitationRecord | undefined> {
    const row = await this.connection.db
      .selectFrom('invitations')
      .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
      .selectAll('invitations')
      .select('accounts.name as account_name')
      .where(`invitations.${column}`, '=', value)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        accountId: row.account_id,
        accountName: row.account_name,
        email: row.email,
        role: row.role,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
        revokedAt: row.revoked_at,
        createdBy: row.created_by,
      }
    );
  }

  async acceptInvitation(
    tokenHash: string,
    now: number,
    user: NewUser | { readonly existingUserId: number },
  ): Promise<{ user: UserRecord; accountId: number; role: RoleName } | 'used' | 'taken'> {
    return this.connection
      .write(async (db) => {
        const claimed = await claimInvitation(db, tokenHash, now);
        if (!claimed) return 'used';
        if ('existingUserId' in user) {
          const existing = await db.selectFrom('users').selectAll().where('id', '=', user.existingUserId).executeTakeFirst();
          if (!existing) throw new Error('the user joining has been removed meanwhile');
          await joinOnce(db, existing.id, claimed.account_id, claimed.role, now);
          return { user: toUser(existing), accountId: claimed.account_id, role: claimed.role };
        }
        let row = await db.selectFrom('users').selectAll().where('email_key', '=', emailKey(user.email)).executeTakeFirst();
        if (row && user.passwordHash !== null) {
          // A password the link set would let the link's holder into their account.
          if (await canSignIn(db, row)) throw new TakenEmail();
        }
        if (!row) row = await insertUser(db, user);
        else if (user.passwordHash !== null) {
          row = await db
            .updateTable('users')
            .set({ password_hash: user.passwordHash, display_name: user.displayName ?? row.display_name })
            .where('id', '=', row.id)
            .returningAll()
            .executeTakeFirstOrThrow();
        }
        if (!row) throw new Error('the invited user could not be made');
        await joinOnce(db, row.id, claimed.account_id, claimed.role, now);
        return { user: toUser(row), accountId: claimed.account_id, role: claimed.role };
      })
      .catch((error: unknown) => {
        if (error instanceof TakenEmail) return 'taken' as const;
        throw error;
      });
  }
}
