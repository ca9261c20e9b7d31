import { type Kysely, type Selectable, sql } from 'kysely';
import type { Connection } from '../connection.js';
import type { CodePermutation } from '../sql/code-permutation.js';
import { IS_STORED_KEY } from '../sql/link-codes.js';
import { previewColumns, rulesColumn, toLinkRecord } from '../sql/link-rows.js';
import { SqlLinkStore } from '../sql/link-store.js';
import { recordLinkEvent } from '../sql/webhook-outbox.js';
import type { CreateOutcome, NewLink } from '../stores/links.js';
import type { Tables } from '../tables.js';
import { anyClash, codedHolderIn, codeHeld, nextIds } from './coded-ids.js';

/**
 * Links on PostgreSQL: new links take their ids from the table's sequence (coded-ids.ts), so instances
 * never make one code twice; a batch is one insert when nothing in it clashes.
 */
export class PostgresLinkStore extends SqlLinkStore<Connection> {
  readonly syncReads = undefined;

  create(link: NewLink): Promise<CreateOutcome> {
    return this.codes().then((codes) => this.connection.write((db) => this.createIn(db, codes, link)));
  }

  async createMany(links: readonly NewLink[]): Promise<CreateOutcome[]> {
    const codes = await this.codes();
    return this.connection.write(async (db) => {
      // The common case in one statement: every link new, no slug on a code, no code on a key
      // stored before. Otherwise, or when a unique index turns any of them away, that try is
      // undone and each link goes the one-link way in order, so a later link never takes a slug
      // or a dedupe slot before an earlier one. Ids taken for the try stay unused (gaps).
      await sql`savepoint links_many`.execute(db);
      const ids = await nextIds(db, links.length);
      const made = links.map((link, i) => codes.codeFor(ids[i]!, link.codeLength));
      if (
        !(await anyClash(
          db,
          codes,
          links.flatMap(({ domain, slug }) => (slug === null ? [] : [{ domain, key: slug }])),
          links.map((link, i) => ({ domain: link.domain, key: made[i]! })),
        ))
      ) {
        const rows = await db
          .insertInto('links')
          .values(links.map((link, i) => insertValues(link, ids[i]!, made[i]!, link.reusable)))
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .execute();
        if (rows.length === links.length) {
          const byId = new Map(rows.map((row) => [Number(row.id), row]));
          const created = ids.map((id) => toLinkRecord(byId.get(id)!));
          for (const link of created) await recordLinkEvent(db, 'link.created', link);
          return created.map((link) => ({ created: link }));
        }
      }
      await sql`rollback to savepoint links_many`.execute(db);
      const outcomes: CreateOutcome[] = [];
      for (const link of links) outcomes.push(await this.createIn(db, codes, link));
      return outcomes;
    });
  }

  /**
   * Takes the next id from the sequence and makes its code (passing over ids whose code a key
   * stored before holds, as SQLite does in sqlite/coded-ids.ts), inserts with ON CONFLICT DO
   * NOTHING and, when a unique index said no, finds out which: the account's own duplicate or a
   * taken slug. SQLite does the same with prepared statements (sqlite/link-writes.ts).
   */
  private async createIn(db: Kysely<Tables>, codes: CodePermutation, link: NewLink): Promise<CreateOutcome> {
    if (link.slug !== null) {
      const coded = await codedHolderIn(db, codes, link.domain, link.slug);
      if (coded) return { slugTaken: toLinkRecord(coded) };
    }
    let id: number;
    let code: string;
    do {
      [id] = (await nextIds(db, 1)) as [number];
      code = codes.codeFor(id, link.codeLength);
    } while (await codeHeld(db, link.domain, code));
    const insert = (reusable: boolean) =>
      db
        .insertInto('links')
        .values(insertValues(link, id, code, reusable))
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
    const created = async (row: Selectable<Tables['links']>): Promise<CreateOutcome> => {
      const record = toLinkRecord(row);
      await recordLinkEvent(db, 'link.created', record);
      return { created: record };
    };
    const inserted = await insert(link.reusable);
    if (inserted) return created(inserted);
    if (link.slug === null) {
      // Only the dedupe index can say no to a code made from a new id.
      const duplicate = link.reusable ? await this.duplicateIn(db, link.accountId, link.domain, link.urlHash) : undefined;
      if (duplicate && link.reuseExisting) return { duplicate };
      const beside = duplicate && (await insert(false));
      if (beside) return created(beside);
    } else {
      const holder = await db
        .selectFrom('links')
        .selectAll()
        .where('domain', '=', link.domain)
        .where('key', '=', link.slug)
        .where(IS_STORED_KEY)
        .executeTakeFirst();
      if (holder) return { slugTaken: toLinkRecord(holder) };
    }
    throw new Error(`Link ${id} was refused by no index known`);
  }
}

/** The row of a new link: its id and the code made from it. */
function insertValues(link: NewLink, id: number, code: string, reusable: boolean) {
  return {
    id,
    code,
    domain: link.domain,
    key: link.slug ?? code,
    slug: link.slug,
    url: link.url,
    url_hash: link.urlHash,
    title: link.title,
    account_id: link.accountId,
    status: 'public' as const,
    created_at: Date.now(),
    deleted_at: null,
    comment: link.comment,
    password_hash: link.passwordHash,
    expires_at: link.expiresAt,
    updated_at: null,
    reusable: reusable ? 1 : 0, // PostgreSQL reads '1' as true
    forward_query: link.forwardQuery ? 1 : 0,
    rules: rulesColumn(link.rules),
    max_visits: link.maxVisits,
    ...previewColumns(link.preview),
    coded: 1,
  };
}
