import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Wrong passwords given with an invitation (decision 0034): someone who signs in already accepts with
// their own password, and after 5 wrong ones the invitation is used up (`used_at` set), so a link is
// not a way to guess a person's password. Every existing invitation starts at none.
export function invitationAttempts(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .alterTable('invitations')
        .addColumn('wrong_passwords', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  };
}
