import { type Kysely, sql } from 'kysely';
import type { Tables } from '../tables.js';
import { CodePermutation } from './code-permutation.js';

// The partial unique indexes of migration 0012, as their conditions read: a query uses one only
// when it names the condition literally.
/** Rows in `links_domain_key`: slugs, and codes stored before codes were made from ids. */
export const STORED_KEY = '(slug is not null or coded = false)';
/** Rows in `links_code`: codes stored before codes were made from ids. */
export const STORED_CODE = 'coded = false';
/** STORED_KEY as a condition of a Kysely query, written out literally. */
export const IS_STORED_KEY = sql<boolean>`${sql.raw(STORED_KEY)}`;
/** STORED_CODE as a condition of a Kysely query, written out literally. */
export const IS_STORED_CODE = sql<boolean>`${sql.raw(STORED_CODE)}`;

/** The permutation of the database's secret, read through Kysely (PostgreSQL, or SQLite in memory). */
export async function permutationOf(db: Kysely<Tables>): Promise<CodePermutation> {
  const row = await db.selectFrom('link_code_secret').select('secret').where('id', '=', 1).executeTakeFirst();
  if (!row) throw new Error('No code secret: the database is not migrated');
  return new CodePermutation(row.secret);
}
