import { sql } from 'kysely';
import type { Connection } from '../connection.js';
import type { PasswordResetRecord, PasswordStore } from '../stores/passwords.js';

export class SqlPasswordStore implements PasswordStore {
  constructor(private readonly connection: Connection) {}

  async setPassword(userId: number, passwordHash: string, keepSessionHash?: string): Promise<boolean> {
    return this.connection.write(async (db) => {
      const updated = await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      let sessions = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (keepSessionHash !== undefined) sessions = sessions.where('id_hash', '<>', keepSessionHash);
      await sessions.execute();
      return true;
    });
  }

  async addPasswordReset(reset: { tokenHash: string; userId: number; now: number; expiresAt: number }): Promise<void> {
    await this.connection.write(async (db) => {
      await db.deleteFrom('password_resets').where('user_id', '=', reset.userId).where('used_at', 'is', null).execute();
      await db
        .insertInto('password_resets')
        .values({ token_hash: reset.tokenHash, user_id: reset.userId, created_at: reset.now, expires_at: reset.expiresAt, used_at: null })
        .execute();
    });
  }

  async passwordResetByHash(tokenHash: string): Promise<PasswordResetRecord | undefined> {
    const row = await this.connection.db
      .selectFrom('password_resets')
      .innerJoin('users', 'users.id', 'password_resets.user_id')
      .select(['password_resets.user_id', 'password_resets.expires_at', 'password_resets.used_at', 'users.email'])
      .where('password_resets.token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && { userId: row.user_id, email: row.email, expiresAt: Number(row.expires_at), usedAt: row.used_at === null ? null : Number(row.used_at) }
    );
  }

  async usePasswordReset(tokenHash: string, now: number, passwordHash: string): Promise<'reset' | 'used'> {
    return this.connection.write(async (db) => {
      const claimed = await db
        .updateTable('password_resets')
        .set({ used_at: now })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .returning('user_id')
        .executeTakeFirst();
      if (!claimed) return 'used';
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', claimed.user_id).execute();
      await db.deleteFrom('sessions').where('user_id', '=', claimed.user_id).execute();
      return 'reset';
    });
  }

  async addWrongInvitationPassword(tokenHash: string, now: number, usedUpAt: number): Promise<number> {
    const row = await this.connection.write((db) =>
      db
        .updateTable('invitations')
        // Both read the row as it was: the count before this one.
        .set({
          wrong_passwords: sql<number>`wrong_passwords + 1`,
          used_at: sql<number | null>`case when wrong_passwords + 1 >= ${usedUpAt} then ${now} else used_at end`,
        })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .returning('wrong_passwords')
        .executeTakeFirst(),
    );
    return row ? Number(row.wrong_passwords) : usedUpAt;
  }

  async invitationWrongPasswords(tokenHash: string): Promise<number> {
    const row = await this.connection.db.selectFrom('invitations').select('wrong_passwords').where('token_hash', '=', tokenHash).executeTakeFirst();
    return row ? Number(row.wrong_passwords) : 0;
  }
}
