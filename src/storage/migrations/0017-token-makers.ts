import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { ROLES_CHECK } from './0014-people.js';

// Who made each token and invitation (issue 37): a token acts with the role it was made with, capped at
// every use by its maker's role in the workspace now, and removing a person revokes what they made.
// `created_by` is the maker's user id; null for what the operator made with the CLI and for everything
// made before this migration. So every existing token keeps acting as its workspace's owner, as it did
// (`role` defaults to owner): no maker was recorded, so none can be capped; revoke and remake one to tie
// it to a person. No foreign key on `created_by`: a revoked token still says who made it after that
// person is gone, and ids are never reused. An invitation is revoked (`revoked_at`) when its maker is
// removed or lowered below the role it grants; a revoked one cannot be accepted.
export function tokenMakers(dialect: Dialect) {
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('tokens').addColumn('created_by', 'integer').execute();
      await db.schema
        .alterTable('tokens')
        .addColumn('role', 'text', (c) => c.notNull().defaultTo('owner').check(ROLES_CHECK))
        .execute();
      await db.schema.createIndex('tokens_created_by').on('tokens').column('created_by').execute();

      await db.schema.alterTable('invitations').addColumn('created_by', 'integer').execute();
      await db.schema.alterTable('invitations').addColumn('revoked_at', time).execute();
      await db.schema.createIndex('invitations_created_by').on('invitations').column('created_by').execute();
    },
  };
}
