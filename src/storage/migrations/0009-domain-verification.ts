import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Proof of control of a private domain (decision 0019): a domain serves redirects, and counts as
// a short domain for other accounts, only once verified. A claim made through the API waits for
// its DNS TXT record; every domain that exists now was added by an administrator and stays
// verified, from the day it was added.
export function domainVerification(dialect: Dialect) {
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('domains').addColumn('verified_at', time).execute();
      await db.schema.alterTable('domains').addColumn('verification_token', 'text').execute();
      await sql`update domains set verified_at = created_at`.execute(db);
    },
  };
}
