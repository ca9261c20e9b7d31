import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// A link's card for social apps' preview fetchers (decision 0041): three nullable text columns, all null when the link
// has none. A card is three plain strings, not a list like the rules: columns read and set one by one on both engines,
// and `preview_title is null` alone says a link has no card (the link index's loader asks it).
export function linkPreviews(_dialect: Dialect) {
  return {
    async up(db: Kysely<any>): Promise<void> {
      for (const column of ['preview_title', 'preview_description', 'preview_image']) {
        await db.schema.alterTable('links').addColumn(column, 'text').execute();
      }
    },
  };
}
