import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Tokens with scopes (decision 0029): `scopes` lists what a token may do, space-separated; null, which
// every existing token gets, is every scope (full rights, as before). `last_used_at` is when the token
// was last presented, to the minute. Expiry (`expires_at`) exists since the first migration.
export function tokenScopes(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('tokens').addColumn('scopes', 'text').execute();
      await db.schema.alterTable('tokens').addColumn('last_used_at', big).execute();
    },
  };
}
