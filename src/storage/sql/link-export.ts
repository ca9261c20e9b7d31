// Every live link with what `brief export` shows of it (whether it has a password, never the hash), read
// in pages of increasing id (keyset): constant memory on both dialects, and no read transaction held across
// the whole run.
import { sql } from 'kysely';
import type { Database } from '../database.js';
import type { StoredPreview, StoredRule } from '../stores/links.js';
import { previewOf, rulesOf } from './link-rows.js';
import { tagsOfLinks } from './tag-store.js';

export interface ExportedLink {
  domain: string;
  key: string;
  isSlug: boolean;
  url: string;
  title: string | null;
  comment: string | null;
  owner: string;
  created: string;
  status: 'public' | 'blocked';
  clicks: number;
  expires: string | null;
  hasPassword: boolean;
  forwardQuery: boolean;
  /** Its redirect rules, in order; empty: none. */
  rules: readonly StoredRule[];
  /** Its visit limit; null: none. */
  maxVisits: number | null;
  /** The visits counted against that limit (flushed ones, as `clicks`); null when it has no limit. */
  limitedVisits: number | null;
  /** Its tags' names, sorted ignoring case; empty: none. */
  tags: string[];
  /** Its card for preview fetchers (decision 0041), as the v3 API shows it; null: none. */
  preview: StoredPreview | null;
}

export const EXPORTED_FIELDS: ReadonlyArray<keyof ExportedLink> = [
  'domain',
  'key',
  'isSlug',
  'url',
  'title',
  'comment',
  'owner',
  'created',
  'status',
  'clicks',
  'expires',
  'hasPassword',
  'forwardQuery',
  'rules',
  'maxVisits',
  'limitedVisits',
  'tags',
  'preview',
];

const iso = (ms: number | string | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** The live links (of one account when `accountId` is given), oldest first, `pageSize` rows read at a time. */
export async function* exportedLinks({ db }: Pick<Database, 'db'>, accountId: number | null, pageSize = 1000): AsyncGenerator<ExportedLink> {
  let after = 0;
  for (;;) {
    let query = db
      .selectFrom('links')
      .innerJoin('accounts', 'accounts.id', 'links.account_id')
      .leftJoin('link_clicks', 'link_clicks.link_id', 'links.id')
      .select([
        'links.id',
        'links.domain',
        'links.key',
        'links.slug',
        'links.url',
        'links.title',
        'links.comment',
        'accounts.name as owner',
        'links.created_at',
        'links.status',
        'link_clicks.clicks',
        'links.expires_at',
        'links.forward_query',
        'links.rules',
        'links.max_visits',
        'links.limited_visits',
        'links.preview_title',
        'links.preview_description',
        'links.preview_image',
        // Whether there is a password, never the hash.
        sql<boolean | number>`links.password_hash is not null`.as('has_password'),
      ])
      .where('links.deleted_at', 'is', null)
      .where('links.id', '>', after)
      .orderBy('links.id')
      .limit(pageSize);
    if (accountId !== null) query = query.where('links.account_id', '=', accountId);
    const rows = await query.execute();
    const tags = await tagsOfLinks(
      db,
      rows.map((row) => Number(row.id)),
    );
    for (const row of rows) {
      yield {
        domain: row.domain,
        key: row.key,
        isSlug: row.slug !== null,
        url: row.url,
        title: row.title,
        comment: row.comment,
        owner: row.owner,
        created: iso(row.created_at)!,
        status: row.status,
        clicks: Number(row.clicks ?? 0),
        expires: iso(row.expires_at),
        hasPassword: Boolean(row.has_password),
        forwardQuery: Boolean(row.forward_query),
        rules: rulesOf(row.rules) ?? [],
        maxVisits: row.max_visits,
        limitedVisits: row.max_visits === null ? null : Number(row.limited_visits),
        tags: tags.get(Number(row.id)) ?? [],
        preview: previewOf(row) ?? null,
      };
    }
    if (rows.length < pageSize) return;
    after = rows.at(-1)!.id;
  }
}
