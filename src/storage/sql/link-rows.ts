import type { LinkRecord, LinkTarget, StoredPreview, StoredRule } from '../stores/links.js';
import type { LinkRow } from '../tables.js';

// A links row as the features see it, on both dialects (the SQLite statements prepared once read the same rows).

export function toLinkRecord(row: LinkRow): LinkRecord {
  return {
    id: row.id,
    code: row.code,
    domain: row.domain,
    key: row.key,
    slug: row.slug,
    url: row.url,
    title: row.title,
    accountId: row.account_id,
    status: row.status,
    createdAt: row.created_at,
    deletedAt: row.deleted_at,
    comment: row.comment,
    passwordHash: row.password_hash,
    expiresAt: row.expires_at,
    updatedAt: row.updated_at,
    reusable: Boolean(row.reusable),
    forwardQuery: Boolean(row.forward_query),
    rules: rulesOf(row.rules) ?? [],
    maxVisits: row.max_visits,
    preview: previewOf(row) ?? null,
  };
}

/** The preview columns: a card only when there is a title (decision 0041). */
export function previewOf(row: Pick<LinkRow, 'preview_title' | 'preview_description' | 'preview_image'>): StoredPreview | undefined {
  if (row.preview_title === null) return undefined;
  return { title: row.preview_title, description: row.preview_description, image: row.preview_image };
}

/** The preview columns of a link's card (all null without one), to insert or set. */
export function previewColumns(preview: StoredPreview | null) {
  return {
    preview_title: preview?.title ?? null,
    preview_description: preview?.description ?? null,
    preview_image: preview?.image ?? null,
  };
}

/** The rules column: null or an empty list is none (undefined). */
export function rulesOf(column: string | null): readonly StoredRule[] | undefined {
  if (column === null) return undefined;
  const rules = JSON.parse(column) as StoredRule[];
  return rules.length === 0 ? undefined : rules;
}

/** The rules column of a link's rules: null when it has none. */
export function rulesColumn(rules: readonly StoredRule[]): string | null {
  return rules.length === 0 ? null : JSON.stringify(rules);
}

/** The columns a redirect needs. */
export const TARGET_COLUMNS = [
  'id',
  'url',
  'status',
  'password_hash',
  'expires_at',
  'forward_query',
  'rules',
  'max_visits',
  'limited_visits',
  'preview_title',
  'preview_description',
  'preview_image',
] as const;
export type TargetRow = Pick<LinkRow, (typeof TARGET_COLUMNS)[number]>;

/**
 * A target; a guard only when the link has a password or an expiry, `forwardQuery` only when it is off, `rules`
 * only when it has some, and `visitLimit` and `preview` only when it has one, so ordinary targets keep one shape.
 */
export function toTarget(row: TargetRow | undefined): LinkTarget | null {
  if (!row) return null;
  const blocked = row.status === 'blocked';
  const target: LinkTarget =
    row.password_hash === null && row.expires_at === null
      ? { id: row.id, url: row.url, blocked }
      : { id: row.id, url: row.url, blocked, guard: { passwordHash: row.password_hash, expiresAt: row.expires_at } };
  const forwarding = row.forward_query ? target : { ...target, forwardQuery: false as const };
  const rules = rulesOf(row.rules);
  const ruled = rules === undefined ? forwarding : { ...forwarding, rules };
  const limited = row.max_visits === null ? ruled : { ...ruled, visitLimit: { max: row.max_visits, counted: Number(row.limited_visits) } };
  const preview = previewOf(row);
  return preview === undefined ? limited : { ...limited, preview };
}
