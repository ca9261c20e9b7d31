import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Generated codes made from the link's id by a keyed permutation (decision 0026). The secret is made
// here, once, and kept in the database, so every instance on it makes and reads the same codes. A new
// link's code is found by decoding it to the id, so the unique indexes on codes and keys keep only the
// rows whose keys are stored: the links from before (their random codes) and slugs. Each holds what it
// held for them; a link made from now on (`coded`) adds nothing to either.
export function permutationCodes(dialect: Dialect) {
  const bool = dialect === 'sqlite' ? 'integer' : 'boolean';
  const bytes = dialect === 'sqlite' ? 'blob' : 'bytea';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('link_code_secret')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('secret', bytes, (c) => c.notNull())
        .execute();
      await db
        .insertInto('link_code_secret')
        .values({ id: 1, secret: randomBytes(32) })
        .execute();
      await db.schema
        .alterTable('links')
        .addColumn('coded', bool, (c) => c.notNull().defaultTo(sql.lit(false)))
        .execute();
      await db.schema.dropIndex('links_code').execute();
      await sql`create unique index links_code on links (code) where coded = false`.execute(db);
      await db.schema.dropIndex('links_domain_key').execute();
      await sql`create unique index links_domain_key on links (domain, key) where slug is not null or coded = false`.execute(db);
    },
  };
}
