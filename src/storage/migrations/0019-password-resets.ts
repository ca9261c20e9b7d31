import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// One-time password reset links (decision 0034): `brief user reset EMAIL` makes one, valid an hour; its
// secret is in the link after `#`, the row holds its SHA-256. Used once (`used_at`); a person's links go
// with the person.
export function passwordResets(dialect: Dialect) {
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`serial primary key`;
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('password_resets')
        .addColumn('id', id)
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('used_at', time)
        .execute();
      await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
    },
  };
}
