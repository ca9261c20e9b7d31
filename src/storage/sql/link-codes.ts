import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { CodePermutation } from './code-permutation.js';
import type { Tables } from './tables.js';

// The partial unique indexes of migration 0012, as their conditions read: a query uses one only
// when it names the condition literally.
/** Rows in `links_domain_key`: slugs, and codes stored before codes were made from ids. */
export const STORED_KEY = '(slug is not null or coded = false)';
/** Rows in `links_code`: codes stored before codes were made from ids. */
export const STORED_CODE = 'coded = false';

const SECRET = 'select secret from link_code_secret where id = 1';

/** The permutation of the database's secret, read with a synchronous SQLite connection. */
export function permutationSync(sqlite: SQLite.Database): CodePermutation {
  const secret = sqlite.prepare<[], Buffer>(SECRET).pluck().get();
  if (!secret) throw new Error('No code secret: the database is not migrated');
  return new CodePermutation(secret);
}

/** The permutation of the database's secret, read through Kysely (PostgreSQL, or SQLite in memory). */
export async function permutationOf(db: Kysely<Tables>): Promise<CodePermutation> {
  const row = await db.selectFrom('link_code_secret').select('secret').where('id', '=', 1).executeTakeFirst();
  if (!row) throw new Error('No code secret: the database is not migrated');
  return new CodePermutation(row.secret);
}
