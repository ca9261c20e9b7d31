import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Written once for both dialects; `id` is the only column whose SQL differs.
export function initial(dialect: Dialect) {
  const id = (big = false) =>
    dialect === 'sqlite' ? sql`integer primary key autoincrement` : big ? sql`bigserial primary key` : sql`serial primary key`;
  const time = dialect === 'sqlite' ? 'integer' : 'bigint';
  const bytes = dialect === 'sqlite' ? 'blob' : 'bytea';

  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('accounts')
        .addColumn('id', id())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('tokens')
        .addColumn('id', id())
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('label', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time)
        .addColumn('revoked_at', time)
        .execute();
      await db.schema.createIndex('tokens_account').on('tokens').column('account_id').execute();

      await db.schema
        .createTable('domains')
        .addColumn('id', id())
        .addColumn('hostname', 'text', (c) => c.notNull().unique())
        .addColumn('url_prefix', 'text', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('domains_account').on('domains').column('account_id').execute();

      await db.schema
        .createTable('links')
        .addColumn('id', id(true))
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('slug', 'text')
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('url_hash', bytes, (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('public'))
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('deleted_at', time)
        .execute();
      // The invariants live here, not in check-then-insert code:
      // a code is never handed out twice, even after deletion;
      await db.schema.createIndex('links_code').on('links').column('code').unique().execute();
      // a path on a domain belongs to one link forever (a deleted short URL never points elsewhere);
      await db.schema.createIndex('links_domain_key').on('links').columns(['domain', 'key']).unique().execute();
      // an account has at most one live slug-less link per URL and domain (dedupe).
      await db.schema
        .createIndex('links_dedupe')
        .on('links')
        .columns(['account_id', 'domain', 'url_hash'])
        .unique()
        .where(sql.ref('slug'), 'is', null)
        .where(sql.ref('deleted_at'), 'is', null)
        .execute();

      // Click counts live in a narrow table of their own: under redirect load every click
      // dirties a page, and a page here holds hundreds of counts instead of a dozen links.
      // No foreign key: checking it would read the wide links table on every increment,
      // and only the click counter (with ids of existing links) writes here.
      await db.schema
        .createTable('link_clicks')
        .addColumn('link_id', dialect === 'sqlite' ? 'integer' : 'bigint', (c) => c.primaryKey())
        .addColumn('clicks', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('link_changes')
        .addColumn('id', id(true))
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();

      // The account that owns links made without credentials.
      await db.insertInto('accounts').values({ name: 'anonymous', created_at: Date.now() }).execute();
    },
  };
}
