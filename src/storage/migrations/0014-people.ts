import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// People in workspaces (decision 0028). Today's accounts are the workspaces, with the same ids, so
// nothing is copied: existing tokens stay workspace tokens with every right in it. A user's email is
// unique whatever its case (`email_key`, lower-cased, carries the unique index); a user made by an
// invitation has no password until it is accepted. Sessions and invitations are stored by the
// SHA-256 of their secret, as tokens are.
export const ROLES_CHECK = sql`role in ('owner', 'admin', 'member', 'viewer')`;

export function people(dialect: Dialect) {
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`serial primary key`;
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', id)
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('email_key', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text')
        .addColumn('password_hash', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('memberships')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull().check(ROLES_CHECK))
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('memberships_pk', ['user_id', 'account_id'])
        .execute();
      await db.schema.createIndex('memberships_account').on('memberships').column('account_id').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_seen_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

      await db.schema
        .createTable('invitations')
        .addColumn('id', id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().check(ROLES_CHECK))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema.createIndex('invitations_account').on('invitations').column('account_id').execute();
    },
  };
}
