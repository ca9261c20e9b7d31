import { type Kysely, sql } from 'kysely';
import type { CodePermutation } from '../sql/code-permutation.js';
import { IS_STORED_CODE, IS_STORED_KEY } from '../sql/link-codes.js';
import { RESERVED_KEYS } from '../stores/links.js';
import type { LinkRow, Tables } from '../tables.js';

// New links' ids and codes on PostgreSQL (decision 0026), for links and imports alike; SQLite's are in
// sqlite/coded-ids.ts. The ids come from the table's sequence, so instances never share one.

/** The next `count` ids of PostgreSQL's sequence: every instance takes its own, so no two make one code. */
export async function nextIds(db: Kysely<Tables>, count: number): Promise<number[]> {
  const { rows } = await sql<{ id: string }>`select nextval(pg_get_serial_sequence('links', 'id')) as id from generate_series(1, ${count})`.execute(
    db,
  );
  return rows.map((row) => Number(row.id));
}

/** A code no link may take: a reserved word, a key stored before on the domain, or a code stored before anywhere. */
export async function codeHeld(db: Kysely<Tables>, domain: string, code: string): Promise<boolean> {
  if (RESERVED_KEYS.has(code.toLowerCase())) return true;
  const { rows } = await sql<{ held: boolean }>`select exists(select 1 from links where domain = ${domain} and key = ${code} and ${IS_STORED_KEY})
    or exists(select 1 from links where code = ${code} and ${IS_STORED_CODE}) as held`.execute(db);
  return Boolean(rows[0]?.held);
}

/** The link whose code made from its id is `key` on `domain`, live or deleted. */
export async function codedHolderIn(db: Kysely<Tables>, codes: CodePermutation, domain: string, key: string): Promise<LinkRow | undefined> {
  const id = codes.decode(key);
  if (id === undefined) return undefined;
  return db.selectFrom('links').selectAll().where('id', '=', id).where('domain', '=', domain).where('key', '=', key).executeTakeFirst();
}

/** A code a batch makes, or a key it asks for (a slug or an import's kept key), on the domain of its link. */
export interface KeyOnDomain {
  readonly domain: string;
  readonly key: string;
}

/** Whether any of a batch must go the one-link way: a slug (or kept key) on a code made before, or a new code on a key or code stored before. */
export async function anyClash(
  db: Kysely<Tables>,
  codes: CodePermutation,
  asked: readonly KeyOnDomain[],
  made: readonly KeyOnDomain[],
): Promise<boolean> {
  if (made.some(({ key }) => RESERVED_KEYS.has(key.toLowerCase()))) return true;
  const { rows } = await clashQuery(codes, asked, made).execute(db);
  return Boolean(rows[0]?.clash);
}

/**
 * anyClash's statement, in parts by domain, each a lookup in an index however many links there are (a list is
 * one array parameter, which PostgreSQL binds far faster than a parameter an item):
 * - a new code among its domain's stored keys (links_domain_key), as codeHeld does, and among the codes
 *   stored before anywhere (links_code);
 * - an asked key that decodes to an id, on the link of that id if it is on the domain with that key
 *   (the primary key), as codedHolderIn does.
 * Without the domain, the keys' part read the whole table once a batch; without the key, any slug of
 * a code's length decoded to some id that exists, and sent nearly every batch the one-link way.
 */
export function clashQuery(codes: CodePermutation, asked: readonly KeyOnDomain[], made: readonly KeyOnDomain[]) {
  const parts = [];
  for (const [domain, keys] of byDomain(made)) {
    parts.push(sql`exists(select 1 from links where domain = ${domain} and key = any(${keys}::text[]) and ${IS_STORED_KEY})`);
  }
  if (made.length > 0) parts.push(sql`exists(select 1 from links where code = any(${made.map(({ key }) => key)}::text[]) and ${IS_STORED_CODE})`);
  const decoded = asked.filter(({ key }) => codes.decode(key) !== undefined);
  for (const [domain, keys] of byDomain(decoded)) {
    const ids = keys.map((key) => codes.decode(key)!);
    parts.push(sql`exists(select 1 from links where id = any(${ids}::bigint[]) and domain = ${domain} and key = any(${keys}::text[]))`);
  }
  return sql<{ clash: boolean }>`select ${parts.length > 0 ? sql.join(parts, sql` or `) : sql`false`} as clash`;
}

/** The keys of each domain. */
function byDomain(keys: readonly KeyOnDomain[]): Map<string, string[]> {
  const domains = new Map<string, string[]>();
  for (const { domain, key } of keys) {
    const list = domains.get(domain);
    if (list) list.push(key);
    else domains.set(domain, [key]);
  }
  return domains;
}
