import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// A workspace's tags and which live links carry them (decision 0040). `name_key` (the name lower-cased) carries the
// unique index, so a later `Marketing` finds the first spelling `marketing`. link_tags' primary key (tag_id, link_id)
// answers "the links with this tag" and counts a tag's links from the index alone; link_tags_link reads a link's tags.
// Rows of a deleted link are removed with it (links are deleted softly), so link_tags holds live links only; no
// foreign key to links, whose rows are never removed.
export function linkTags(dialect: Dialect) {
  const id = dialect === 'sqlite' ? sql`integer primary key autoincrement` : sql`serial primary key`;
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('tags')
        .addColumn('id', id)
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('color', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('tags_account_name').on('tags').columns(['account_id', 'name_key']).unique().execute();

      let linkTags = db.schema
        .createTable('link_tags')
        .addColumn('tag_id', 'integer', (c) => c.notNull().references('tags.id').onDelete('cascade'))
        .addColumn('link_id', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('link_tags_pk', ['tag_id', 'link_id']);
      // SQLite: the primary key is the table itself (no rowid and second index beside it).
      if (dialect === 'sqlite') linkTags = linkTags.modifyEnd(sql`without rowid`);
      await linkTags.execute();
      await db.schema.createIndex('link_tags_link').on('link_tags').columns(['link_id', 'tag_id']).execute();
    },
  };
}
