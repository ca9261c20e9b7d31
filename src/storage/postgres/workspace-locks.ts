import { sql } from 'kysely';
import type { WorkspaceLocks } from '../sql/workspace-locks.js';

/** Row locks on `accounts`: writes about one workspace take turns, those about others run side by side. */
export const postgresWorkspaceLocks: WorkspaceLocks = {
  async lockWorkspace(db, accountId) {
    await sql`select id from accounts where id = ${accountId} for update`.execute(db);
  },
  async shareWorkspace(db, accountId) {
    await sql`select id from accounts where id = ${accountId} for share`.execute(db);
  },
  async lockWorkspacesOf(db, userId) {
    const joined = db.selectFrom('memberships').select('account_id').where('user_id', '=', userId);
    await db.selectFrom('accounts').select('id').where('id', 'in', joined).orderBy('id').forUpdate().execute();
  },
};
