// `brief import` on PostgreSQL (decision 0025): a chunk of rows in a few statements, each list one
// array parameter (unnest, = any), and the rows a chunk could not place the one-row way.
import { type Kysely, sql } from 'kysely';
import type { CodePermutation } from '../sql/code-permutation.js';
import { IS_STORED_KEY } from '../sql/link-codes.js';
import { previewColumns, rulesColumn } from '../sql/link-rows.js';
import { type ImportedLink, type ImportOutcome, type Placement, placements } from '../stores/imports.js';
import type { Tables } from '../tables.js';
import { anyClash, codedHolderIn, codeHeld, nextIds } from './coded-ids.js';

/**
 * PostgreSQL: a chunk in a few statements instead of four a row. The rows imported before are read in one
 * query, the rest take their ids in one, are checked against the keys and codes stored in one, inserted in
 * one (ON CONFLICT DO NOTHING, matched back by their ids) and noted in one; a row a unique index turned
 * away, or any row of a chunk with a clash, goes the one-row way (writeRow), which tells a taken key from
 * a taken code.
 */
export async function writeRows(
  db: Kysely<Tables>,
  codes: CodePermutation,
  source: string,
  links: readonly ImportedLink[],
  codeLength: (domain: string) => number,
): Promise<ImportOutcome[]> {
  const known = await db
    .selectFrom('link_imports')
    .select('origin_key')
    .where('source', '=', source)
    .where(sql<boolean>`origin_key = any(${links.map((link) => link.originKey)}::text[])`)
    .execute();
  const importedBefore = new Set(known.map((row) => row.origin_key));
  const seen = new Set<string>();
  const outcomes: Array<ImportOutcome | undefined> = [];
  const fresh: Array<{ index: number; link: ImportedLink; placement: Placement }> = [];
  for (const [index, link] of links.entries()) {
    if (importedBefore.has(link.originKey)) {
      outcomes.push({ skipped: true });
      continue;
    }
    outcomes.push(undefined);
    // The same row twice in a chunk: the second goes the one-row way after the first is written (skipped, as on SQLite).
    if (seen.has(link.originKey)) continue;
    seen.add(link.originKey);
    fresh.push({ index, link, placement: placements(link)[0]! });
  }
  if (fresh.length > 0) {
    const ids = await nextIds(db, fresh.length);
    const rows = fresh.map(({ link, placement }, i) =>
      'keptCode' in placement
        ? linkValues(link, ids[i]!, placement.keptCode, null, false)
        : linkValues(link, ids[i]!, codes.codeFor(ids[i]!, codeLength(link.domain)), placement.slug, true),
    );
    const made = rows.filter((row) => row.coded === 1).map(({ domain, code }) => ({ domain, key: code }));
    const asked = fresh.flatMap(({ link: { domain, key } }) => (key === null ? [] : [{ domain, key }]));
    const askedHere = new Set(asked.map(({ key }) => key));
    if (!made.some(({ key }) => askedHere.has(key)) && !(await anyClash(db, codes, asked, made))) {
      const inserted = await insertRows(db, rows);
      const byId = new Map(inserted.map((row) => [Number(row.id), row]));
      const notes: Array<{ originKey: string; linkId: number }> = [];
      const clicks: Array<{ linkId: number; clicks: number }> = [];
      const now = Date.now();
      for (const [i, { index, link, placement }] of fresh.entries()) {
        const row = byId.get(ids[i]!);
        if (!row) continue;
        outcomes[index] = { imported: { id: ids[i]!, domain: row.domain, key: row.key, slug: 'slug' in placement ? placement.slug : null } };
        notes.push({ originKey: link.originKey, linkId: ids[i]! });
        if (link.clicks > 0) clicks.push({ linkId: ids[i]!, clicks: link.clicks });
      }
      if (notes.length > 0) {
        await sql`insert into link_imports (source, origin_key, link_id, imported_at)
          select ${source}, origin_key, link_id, ${now} from unnest(${notes.map((note) => note.originKey)}::text[], ${notes.map((note) => note.linkId)}::bigint[]) as t(origin_key, link_id)`.execute(
          db,
        );
      }
      if (clicks.length > 0) {
        await sql`insert into link_clicks (link_id, clicks)
          select * from unnest(${clicks.map((row) => row.linkId)}::bigint[], ${clicks.map((row) => row.clicks)}::bigint[])`.execute(db);
      }
    }
  }
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome === undefined) outcomes[index] = await writeRow(db, codes, source, links[index]!, codeLength);
  }
  return outcomes as ImportOutcome[];
}

/**
 * A chunk's links in one INSERT … SELECT FROM unnest(arrays): a parameter a column rather than one a value
 * (24 a link: 48,000 for a chunk), which PostgreSQL parses and binds, and the driver sends, many times faster.
 * The ones a unique index turned away (ON CONFLICT DO NOTHING) are missing from what it returns.
 */
function insertRows(db: Kysely<Tables>, rows: ReadonlyArray<ReturnType<typeof linkValues>>) {
  const column = <K extends keyof ReturnType<typeof linkValues>>(name: K) => rows.map((row) => row[name]);
  return sql<{ id: string; domain: string; key: string }>`insert into links
    (id, code, domain, key, slug, url, url_hash, title, account_id, status, created_at, comment, expires_at, reusable, forward_query, rules, max_visits, limited_visits,
     preview_title, preview_description, preview_image, coded)
    select * from unnest(
      ${column('id')}::bigint[], ${column('code')}::text[], ${column('domain')}::text[], ${column('key')}::text[],
      ${column('slug')}::text[], ${column('url')}::text[], ${column('url_hash')}::bytea[], ${column('title')}::text[],
      ${column('account_id')}::integer[], ${column('status')}::text[], ${column('created_at')}::bigint[], ${column('comment')}::text[],
      ${column('expires_at')}::bigint[], ${rows.map((row) => row.reusable === 1)}::boolean[],
      ${rows.map((row) => row.forward_query === 1)}::boolean[], ${column('rules')}::text[], ${column('max_visits')}::integer[], ${column('limited_visits')}::integer[],
      ${column('preview_title')}::text[], ${column('preview_description')}::text[], ${column('preview_image')}::text[],
      ${rows.map((row) => row.coded === 1)}::boolean[])
    on conflict do nothing
    returning id, domain, key`
    .execute(db)
    .then((result) => result.rows);
}

function linkValues(link: ImportedLink, id: number, code: string, slug: string | null, coded: boolean) {
  return {
    id,
    code,
    domain: link.domain,
    key: slug ?? code,
    slug,
    url: link.url,
    url_hash: link.urlHash,
    title: link.title,
    account_id: link.accountId,
    status: link.status,
    created_at: link.createdAt,
    deleted_at: null,
    comment: link.comment,
    password_hash: null,
    expires_at: link.expiresAt,
    updated_at: null,
    reusable: 0, // PostgreSQL reads '0' as false
    forward_query: link.forwardQuery ? 1 : 0,
    rules: rulesColumn(link.rules),
    max_visits: link.maxVisits,
    limited_visits: link.limitedVisits,
    ...previewColumns(link.preview),
    coded: coded ? 1 : 0,
  };
}

async function writeRow(
  db: Kysely<Tables>,
  codes: CodePermutation,
  source: string,
  link: ImportedLink,
  codeLength: (domain: string) => number,
): Promise<ImportOutcome> {
  const known = await db
    .selectFrom('link_imports')
    .select('link_id')
    .where('source', '=', source)
    .where('origin_key', '=', link.originKey)
    .executeTakeFirst();
  if (known) return { skipped: true };
  if (link.key !== null && (await codedHolderIn(db, codes, link.domain, link.key))) return { keyTaken: true };
  for (const placement of placements(link)) {
    let values: ReturnType<typeof linkValues>;
    if ('keptCode' in placement) {
      const codedId = codes.decode(placement.keptCode);
      const coded =
        codedId !== undefined &&
        (await db.selectFrom('links').select('id').where('id', '=', codedId).where('code', '=', placement.keptCode).executeTakeFirst());
      if (coded) continue;
      const [id] = (await nextIds(db, 1)) as [number];
      values = linkValues(link, id, placement.keptCode, null, false);
    } else {
      let id: number;
      let code: string;
      do {
        [id] = (await nextIds(db, 1)) as [number];
        code = codes.codeFor(id, codeLength(link.domain));
      } while (await codeHeld(db, link.domain, code));
      values = linkValues(link, id, code, placement.slug, true);
    }
    const inserted = await db
      .insertInto('links')
      .values(values)
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) {
      const holder = await db
        .selectFrom('links')
        .select('id')
        .where('domain', '=', link.domain)
        .where('key', '=', values.key)
        .where(IS_STORED_KEY)
        .executeTakeFirst();
      if (holder) return { keyTaken: true };
      continue; // the kept code alone was taken (on another domain)
    }
    const id = Number(inserted.id);
    await db.insertInto('link_imports').values({ source, origin_key: link.originKey, link_id: id, imported_at: Date.now() }).execute();
    if (link.clicks > 0) await db.insertInto('link_clicks').values({ link_id: id, clicks: link.clicks }).execute();
    return { imported: { id, domain: link.domain, key: values.key, slug: values.slug } };
  }
  throw new Error(`Import row ${link.originKey} found no place`);
}
