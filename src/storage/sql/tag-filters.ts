import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { TagFilter } from '../stores/tags.js';
import type { Tables } from '../tables.js';

// A tag filter (stores/tags.ts) as SQL on a column of link ids, the same on both engines. link_tags holds live links
// only, each tag of its link's workspace (migration 0024), so a count of tagged links can be read from it alone.

/**
 * A filter with its names read as the workspace's tag ids, before the query that uses them: given the ids themselves,
 * PostgreSQL plans from what it knows of each (a tag on 10% of the links is among its most common values), where a
 * subquery of ids got a guess and, for two tags, a hash of every row and a sort (386 ms at a million links).
 */
export interface ResolvedTags {
  /** Each group a link must carry one of: one group of every name for `any`, a group a name for `all`. */
  readonly groups: readonly (readonly number[])[];
  /** A link carrying any of these is left out. */
  readonly none: readonly number[];
  /** No link can match (`any` of names no tag has, `all` with one of them). */
  readonly impossible: boolean;
}

/** The filter's names as the workspace's tag ids, in one read; undefined when there is no filter. */
export async function resolveTags(db: Kysely<Tables>, accountId: number, filter: TagFilter | undefined): Promise<ResolvedTags | undefined> {
  if (filter === undefined) return undefined;
  const keys = (names: readonly string[]) => [...new Set(names.map((name) => name.toLowerCase()))];
  const [wanted, unwanted] = [keys(filter.tags), keys(filter.exclude)];
  const all = [...new Set([...wanted, ...unwanted])];
  const rows =
    all.length === 0
      ? []
      : await db.selectFrom('tags').select(['id', 'name_key']).where('account_id', '=', accountId).where('name_key', 'in', all).execute();
  const ids = new Map(rows.map((row) => [row.name_key, Number(row.id)]));
  const known = (names: string[]) => names.flatMap((name) => (ids.has(name) ? [ids.get(name)!] : []));
  const groups = filter.mode === 'all' ? wanted.map((name) => known([name])) : wanted.length === 0 ? [] : [known(wanted)];
  return { groups: groups.filter((group) => group.length > 0), none: known(unwanted), impossible: groups.some((group) => group.length === 0) };
}

/** `tag_id = x` or `tag_id in (x, y)`. */
const oneOf = (column: RawBuilder<unknown>, ids: readonly number[]) =>
  ids.length === 1 ? sql<boolean>`${column} = ${ids[0]}` : sql<boolean>`${column} in (${sql.join(ids)})`;

/** Whether the link in `link` (a column) carries one of these tags: a probe of link_tags_link. */
const carries = (link: RawBuilder<unknown>, ids: readonly number[]) =>
  sql<boolean>`exists (select 1 from link_tags where link_tags.link_id = ${link} and ${oneOf(sql.ref('link_tags.tag_id'), ids)})`;

/**
 * The filter as conditions on `column` (link ids), each probing link_tags by link (its index link_tags_link), so a
 * page of links newest first stops as soon as it is full; none when the filter keeps every link.
 */
export function tagConditions(column: string, tags: ResolvedTags | undefined): RawBuilder<boolean>[] {
  if (tags === undefined) return [];
  if (tags.impossible) return [sql<boolean>`1 = 0`];
  const link = sql.ref(column);
  const conditions = tags.groups.map((group) => carries(link, group));
  if (tags.none.length > 0) conditions.push(sql<boolean>`not ${carries(link, tags.none)}`);
  return conditions;
}

/**
 * How many of the workspace's live links a filter with `tags` keeps, read from link_tags alone (no row of links): those
 * with the tags (a tag's count is its part of the primary key's index; for `all`, a join the engine drives from the
 * tag with the fewest links), less those of them with an excluded tag (a join driven the same way, so `tags=a`
 * `&excludeTags=b` costs b's links, not a probe of each of a's).
 */
export async function countTagged(db: Kysely<Tables>, tags: ResolvedTags): Promise<number> {
  if (tags.impossible || tags.groups.length === 0) return 0;
  const joined = (extra: readonly (readonly number[])[]) => {
    const groups = [...tags.groups, ...extra];
    const tables = groups.map((_, i) => sql`link_tags as ${sql.ref(`g${i}`)}`);
    const on = groups.map((group, i) => oneOf(sql.ref(`g${i}.tag_id`), group));
    const same = groups.slice(1).map((_, i) => sql<boolean>`${sql.ref(`g${i + 1}.link_id`)} = g0.link_id`);
    // A link counted once however many of a group's tags it carries.
    const counted = groups.some((group) => group.length > 1) ? sql`count(distinct g0.link_id)` : sql`count(*)`;
    return sql`select ${counted} as count from ${sql.join(tables)} where ${sql.join([...on, ...same], sql` and `)}`;
  };
  const [kept, excluded] = await Promise.all([countOf(db, joined([])), tags.none.length === 0 ? 0 : countOf(db, joined([tags.none]))]);
  return kept - excluded;
}

async function countOf(db: Kysely<Tables>, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`${query}`.execute(db);
  return Number(rows[0]?.count ?? 0);
}
