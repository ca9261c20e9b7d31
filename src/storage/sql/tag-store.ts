import type { Kysely } from 'kysely';
import type { Connection } from '../connection.js';
import type { TagEditOutcome, TagRecord, TagStore } from '../stores/tags.js';
import type { Tables } from '../tables.js';
import { inPowersOfTwo } from './batch-shapes.js';
import type { WorkspaceLocks } from './workspace-locks.js';

/** Names in the order a person reads them: ignoring case, then by code point (the same on both engines: sorted here). */
export function byTagName(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Tags, the same queries on both dialects. A rename or a deletion takes the workspace's turn (WorkspaceLocks): two
 * renames onto one name cannot both find it free.
 */
export class SqlTagStore implements TagStore {
  constructor(
    private readonly connection: Connection,
    private readonly locks: WorkspaceLocks,
  ) {}

  setTags(accountId: number, links: ReadonlyArray<{ readonly linkId: number; readonly tags: readonly string[] }>): Promise<void> {
    if (links.length === 0) return Promise.resolve();
    return this.connection.write((db) => writeLinkTags(db, accountId, links));
  }

  async tagsOf(linkIds: readonly number[]): Promise<Map<number, string[]>> {
    const tags = new Map<number, string[]>();
    for (const chunk of inPowersOfTwo([...new Set(linkIds)])) {
      const rows = await this.connection.db
        .selectFrom('link_tags')
        .innerJoin('tags', 'tags.id', 'link_tags.tag_id')
        .select(['link_tags.link_id', 'tags.name'])
        .where('link_tags.link_id', 'in', chunk)
        .execute();
      for (const { link_id, name } of rows) {
        const id = Number(link_id);
        tags.set(id, [...(tags.get(id) ?? []), name]);
      }
    }
    for (const names of tags.values()) names.sort(byTagName);
    return tags;
  }

  async list(accountId: number): Promise<TagRecord[]> {
    const rows = await this.connection.db
      .selectFrom('tags')
      .leftJoin('link_tags', 'link_tags.tag_id', 'tags.id')
      .select(['tags.name', 'tags.color', (eb) => eb.fn.count<number>('link_tags.link_id').as('links')])
      .where('tags.account_id', '=', accountId)
      .groupBy(['tags.id', 'tags.name', 'tags.color'])
      .execute();
    return rows.map((row) => ({ name: row.name, color: row.color, links: Number(row.links) })).sort((a, b) => byTagName(a.name, b.name));
  }

  edit(accountId: number, name: string, changes: { readonly name?: string; readonly color?: string | null }): Promise<TagEditOutcome> {
    return this.connection.write(async (db) => {
      await this.locks.lockWorkspace(db, accountId);
      const tag = await this.find(db, accountId, name);
      if (!tag) return 'notFound';
      const key = changes.name?.toLowerCase();
      if (key !== undefined && key !== tag.name_key) {
        const holder = await this.find(db, accountId, key);
        if (holder) return 'nameTaken';
      }
      await db
        .updateTable('tags')
        .set({
          ...(changes.name !== undefined && { name: changes.name, name_key: key }),
          ...(changes.color !== undefined && { color: changes.color }),
        })
        .where('id', '=', tag.id)
        .execute();
      const links = await db
        .selectFrom('link_tags')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('tag_id', '=', tag.id)
        .executeTakeFirstOrThrow();
      return {
        edited: {
          name: changes.name ?? tag.name,
          color: changes.color === undefined ? tag.color : changes.color,
          links: Number(links.count),
        },
      };
    });
  }

  delete(accountId: number, name: string): Promise<boolean> {
    return this.connection.write(async (db) => {
      await this.locks.lockWorkspace(db, accountId);
      const tag = await this.find(db, accountId, name);
      if (!tag) return false;
      await db.deleteFrom('link_tags').where('tag_id', '=', tag.id).execute();
      await db.deleteFrom('tags').where('id', '=', tag.id).execute();
      return true;
    });
  }

  private find(db: Kysely<Tables>, accountId: number, name: string) {
    return db.selectFrom('tags').selectAll().where('account_id', '=', accountId).where('name_key', '=', name.toLowerCase()).executeTakeFirst();
  }
}

/**
 * In a write: sets each link's tags to exactly these names. A name new to the workspace makes its tag (the first
 * spelling in the write kept); one it has in any case takes that tag. A link's rows are chosen from the tags table by
 * name, so a tag deleted at the same moment is left off rather than refused.
 */
export async function writeLinkTags(
  db: Kysely<Tables>,
  accountId: number,
  links: ReadonlyArray<{ readonly linkId: number; readonly tags: readonly string[] }>,
): Promise<void> {
  const spellings = new Map<string, string>();
  for (const name of links.flatMap((link) => link.tags)) if (!spellings.has(name.toLowerCase())) spellings.set(name.toLowerCase(), name);
  const now = Date.now();
  for (const chunk of inPowersOfTwo([...spellings])) {
    await db
      .insertInto('tags')
      .values(chunk.map(([name_key, name]) => ({ account_id: accountId, name, name_key, color: null, created_at: now })))
      .onConflict((oc) => oc.columns(['account_id', 'name_key']).doNothing())
      .execute();
  }
  await dropTagsOf(
    db,
    links.map((link) => link.linkId),
  );
  for (const { linkId, tags } of links) {
    if (tags.length === 0) continue;
    const keys = [...new Set(tags.map((name) => name.toLowerCase()))];
    await db
      .insertInto('link_tags')
      .columns(['tag_id', 'link_id'])
      .expression((eb) =>
        eb
          .selectFrom('tags')
          .select(['id', eb.val(linkId).as('link_id')])
          .where('account_id', '=', accountId)
          .where('name_key', 'in', keys),
      )
      .execute();
  }
}

/** In a write that deletes links: their tags go with them, so link_tags holds live links only. */
export async function dropTagsOf(db: Kysely<Tables>, linkIds: readonly number[]): Promise<void> {
  for (const chunk of inPowersOfTwo(linkIds)) await db.deleteFrom('link_tags').where('link_id', 'in', chunk).execute();
}
