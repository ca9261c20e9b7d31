import type { Kysely } from 'kysely';
import type { NewUser, UserRecord } from '../stores/people.js';
import type { Tables, UserRow } from '../tables.js';

// A person's row: as the features see it, and made once per email whatever its case.

export const toUser = (row: UserRow): UserRecord => ({
  id: row.id,
  email: row.email,
  displayName: row.display_name,
  hasPassword: row.password_hash !== null,
  createdAt: row.created_at,
});

/** Emails are one user whatever their case. */
export const emailKey = (email: string): string => email.toLowerCase();

/** A new user, unless one has the email already (then undefined). */
export function insertUser(db: Kysely<Tables>, user: NewUser): Promise<UserRow | undefined> {
  return db
    .insertInto('users')
    .values({
      email: user.email,
      email_key: emailKey(user.email),
      display_name: user.displayName,
      password_hash: user.passwordHash,
      created_at: Date.now(),
    })
    .onConflict((oc) => oc.column('email_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}
