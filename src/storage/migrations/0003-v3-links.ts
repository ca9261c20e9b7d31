import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// The v3 interface: a link's comment, password (its scrypt hash), expiry and last edit; links
// made without dedupe; the caller's links listed newest first; per-domain settings.
export function v3Links(dialect: Dialect) {
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  const bool = dialect === 'sqlite' ? 'integer' : 'boolean';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('links').addColumn('comment', 'text').execute();
      await db.schema.alterTable('links').addColumn('password_hash', 'text').execute();
      await db.schema.alterTable('links').addColumn('expires_at', time).execute();
      await db.schema.alterTable('links').addColumn('updated_at', time).execute();
      // A v3 link made without `reuseExisting` is a new link even when the account has one for
      // the URL already: it stays out of the dedupe index, so the index needs the flag.
      await db.schema
        .alterTable('links')
        .addColumn('reusable', bool, (c) => c.notNull().defaultTo(sql.lit(true)))
        .execute();
      await db.schema.dropIndex('links_dedupe').execute();
      await db.schema
        .createIndex('links_dedupe')
        .on('links')
        .columns(['account_id', 'domain', 'url_hash'])
        .unique()
        .where(sql.ref('slug'), 'is', null)
        .where(sql.ref('deleted_at'), 'is', null)
        .where(sql.ref('reusable'), '=', sql.lit(true))
        .execute();
      // v3's list: an account's live links, newest first.
      await db.schema.createIndex('links_account').on('links').columns(['account_id', 'id']).where(sql.ref('deleted_at'), 'is', null).execute();

      await db.schema.alterTable('domains').addColumn('code_length', 'integer').execute();
      await db.schema.alterTable('domains').addColumn('home_redirect_url', 'text').execute();
      await db.schema.alterTable('domains').addColumn('not_found_redirect_url', 'text').execute();
    },
  };
}
