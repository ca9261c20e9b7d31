import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// The files a domain serves under `/.well-known/` for app links (decision 0042): one row a domain and file name,
// the body as uploaded (text, at most 64 KB, checked before it is stored) and when it was last set. Keyed by the
// domain's host name, not its row id, and without a foreign key: the configured domains (BASE_URL, PUBLIC_DOMAINS)
// are not rows of `domains` and may carry files too; removing a stored domain deletes its files in the same write.
export function domainWellKnown(dialect: Dialect) {
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('domain_well_known')
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('updated_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('domain_well_known_pkey', ['domain', 'name'])
        .execute();
    },
  };
}
