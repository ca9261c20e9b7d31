import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { TagFilter } from '../stores/tags.js';
import type { Tables } from '../tables.js';

// A tag filter (stores/tags.ts) as SQL on a column of link ids, the same on both engines. link_tags holds live links
// only, each tag of its link's workspace (migration 0024), so a count of tagged links can be read from it alone.

const keysOf = (names: readonly string[]) => [...new Set(names.map((name) => name.toLowerCase()))];

/** The ids of the workspace's tags of these names, as a subquery (a name no tag has adds nothing). */
function tagIds(accountId: number, names: readonly string[]): RawBuilder<unknown> {
  return sql`select id from tags where account_id = ${accountId} and name_key in (${sql.join(keysOf(names))})`;
}

/** The links the filter's `tags` keep, as a subquery of link ids: those with any, or with all, of them. */
function includedIds(accountId: number, filter: TagFilter): RawBuilder<unknown> {
  const ids = tagIds(accountId, filter.tags);
  const keys = keysOf(filter.tags).length;
  if (keys === 1) return sql`select link_id from link_tags where tag_id in (${ids})`;
  if (filter.mode === 'any') return sql`select distinct link_id from link_tags where tag_id in (${ids})`;
  return sql`select link_id from link_tags where tag_id in (${ids}) group by link_id having count(*) = ${keys}`;
}

/**
 * The filter as conditions on `column` (link ids), each probing link_tags by link (its index link_tags_link), so a
 * page of links newest first stops as soon as it is full; none when the filter keeps every link.
 */
export function tagConditions(column: string, accountId: number, filter: TagFilter | undefined): RawBuilder<boolean>[] {
  if (filter === undefined) return [];
  const link = sql.ref(column);
  const conditions: RawBuilder<boolean>[] = [];
  if (filter.tags.length > 0) {
    const ids = tagIds(accountId, filter.tags);
    const keys = keysOf(filter.tags);
    conditions.push(
      filter.mode === 'any' || keys.length === 1
        ? sql<boolean>`exists (select 1 from link_tags where link_tags.link_id = ${link} and link_tags.tag_id in (${ids}))`
        : sql<boolean>`(select count(*) from link_tags where link_tags.link_id = ${link} and link_tags.tag_id in (${ids})) = ${keys.length}`,
    );
  }
  if (filter.exclude.length > 0) {
    conditions.push(
      sql<boolean>`not exists (select 1 from link_tags where link_tags.link_id = ${link} and link_tags.tag_id in (${tagIds(accountId, filter.exclude)}))`,
    );
  }
  return conditions;
}

/**
 * How many of the workspace's live links a filter with `tags` and no `exclude` keeps, read from link_tags alone (no
 * row of links): the count of a tag's links is its part of the primary key's index.
 */
export async function countTagged(db: Kysely<Tables>, accountId: number, filter: TagFilter): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`select count(*) as count from (${includedIds(accountId, filter)}) as tagged`.execute(db);
  return Number(rows[0]?.count ?? 0);
}
