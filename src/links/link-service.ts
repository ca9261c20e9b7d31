import { createHash } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Caller } from '../accounts/account-service.js';
import type { Config, ShortDomain } from '../config.js';
import type { DomainService } from '../domains/domain-service.js';
import { AppError } from '../http/app-error.js';
import type { Database } from '../storage/database.js';
import type { LinkRow, Tables } from '../storage/tables.js';
import { generateCode, validateSlug } from './codes.js';
import type { LinkChangeSink } from './link-changes.js';
import { parseLinkReference, type LinkReference } from './link-reference.js';
import type { ShortenInput } from './schemas.js';
import { toLinkView, type LinkView } from './link-view.js';
import { normalizeUrl } from './normalize-url.js';

export const TITLE_MAX_LENGTH = 512;
const CODE_ATTEMPTS = 10;

export type { ShortenInput } from './schemas.js';

interface NewLinkFields {
  accountId: number;
  domain: ShortDomain;
  slug: string | null;
  url: string;
  urlHash: Buffer;
  title: string | null;
}

export class LinkService {
  private duplicateStatement: Statement | undefined;

  constructor(
    private readonly config: Config,
    private readonly database: Database,
    private readonly domains: DomainService,
    private readonly changes: LinkChangeSink,
  ) {}

  /** GET /v2/shorten: a new link, or the caller's existing one for the same URL (dedupe) or slug (retry). */
  async shorten(caller: Caller, input: ShortenInput): Promise<LinkView> {
    // `url` is required by the route's schema and by ShortenInput; an empty one is refused by normalizeUrl.
    const url = normalizeUrl(input.url);
    const title = input.title ? input.title : null;
    if (title !== null && title.length > TITLE_MAX_LENGTH) {
      throw AppError.invalid('title', 'maxLength', `The title field must not be greater than ${TITLE_MAX_LENGTH} characters`);
    }
    // PostgreSQL cannot store NUL in text; refuse it on every dialect alike.
    if (title !== null && title.includes('\u0000')) throw AppError.invalid('title', 'regex', 'The title field format is invalid');
    const slug = input.slug ? validateSlug(input.slug) : null;
    const domain = await this.domains.forShorten(caller, input.domain || undefined);
    if (await this.domains.isShortHost(url.host, url.hostname)) {
      throw AppError.invalid('url', 'notShortLink', 'The url field must not point to a short link domain');
    }

    const fields: NewLinkFields = {
      accountId: caller.accountId,
      domain,
      slug,
      url: url.href,
      urlHash: createHash('sha256').update(url.href).digest(),
      title,
    };
    // Fast path for a repeated URL: a read, no write. The unique index still decides races.
    const known = slug === null ? await this.findKnown(fields) : undefined;
    const row = known ?? (await this.database.write((db) => this.insert(db, fields)));
    if (!known) this.changes.announce(row.domain, row.key);
    return toLinkView(row, domain);
  }

  /** DELETE /v2/links/{link}: only the owner may delete; anything else is "not found". */
  async delete(caller: Caller, reference: string): Promise<void> {
    const row = await this.find(reference, caller.accountId);
    if (!row) throw AppError.notFound();
    await this.database.write(async (db) => {
      const result = await db
        .updateTable('links')
        .set({ deleted_at: Date.now() })
        .where('id', '=', row.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw AppError.notFound();
      await this.changes.record(db, row.domain, row.key);
    });
    this.changes.announce(row.domain, row.key);
  }

  /** `brief link block|unblock`: an administrator's switch; a blocked link answers 410. */
  async setStatus(reference: string, status: 'public' | 'blocked'): Promise<LinkView> {
    const row = await this.find(reference);
    if (!row) throw AppError.notFound(`No live link "${reference}"`);
    await this.database.write(async (db) => {
      await db.updateTable('links').set({ status }).where('id', '=', row.id).execute();
      await this.changes.record(db, row.domain, row.key);
    });
    this.changes.announce(row.domain, row.key);
    return this.view({ ...row, status });
  }

  /** `brief link show`: a live link by reference, whoever owns it, with its click count. */
  async show(reference: string): Promise<LinkView & { clicks: number; createdAt: string }> {
    const row = await this.find(reference);
    if (!row) throw AppError.notFound(`No live link "${reference}"`);
    const counted = await this.database.db.selectFrom('link_clicks').select('clicks').where('link_id', '=', row.id).executeTakeFirst();
    return { ...(await this.view(row)), clicks: counted?.clicks ?? 0, createdAt: new Date(row.created_at).toISOString() };
  }

  private async view(row: LinkRow): Promise<LinkView> {
    const domain = (await this.domains.find(row.domain)) ?? { hostname: row.domain, urlPrefix: `https://${row.domain}` };
    return toLinkView(row, domain);
  }

  /**
   * A live link named by a reference, optionally only among one account's links. The key
   * on the domain (slug or code) wins; a bare generated code is accepted as well.
   */
  private async find(reference: string, accountId?: number): Promise<LinkRow | undefined> {
    const target = parseLinkReference(reference, this.config.defaultDomain.hostname);
    if (!target) return undefined;
    return (await this.findBy(target, 'key', accountId)) ?? (await this.findBy(target, 'code', accountId));
  }

  private findBy(target: LinkReference, column: 'key' | 'code', accountId?: number): Promise<LinkRow | undefined> {
    let query = this.database.db.selectFrom('links').selectAll().where(column, '=', target.key).where('deleted_at', 'is', null);
    if (column === 'key' || target.explicitDomain) query = query.where('domain', '=', target.domain);
    if (accountId !== undefined) query = query.where('account_id', '=', accountId);
    return query.executeTakeFirst();
  }

  /**
   * The dedupe read before any write. On SQLite it uses the read-only connection:
   * synchronous, committed rows only, and not queued behind an open group commit on the
   * writer as a Kysely read is. PostgreSQL asks Kysely.
   */
  private async findKnown(fields: NewLinkFields): Promise<LinkRow | undefined> {
    const reader = this.database.reader;
    if (!reader) return this.findDuplicate(this.database.db, fields);
    this.duplicateStatement ??= reader.prepare(
      'select * from links where account_id = ? and domain = ? and url_hash = ? and slug is null and deleted_at is null',
    );
    return this.duplicateStatement.get(fields.accountId, fields.domain.hostname, fields.urlHash) as LinkRow | undefined;
  }

  private findDuplicate(db: Kysely<Tables>, fields: NewLinkFields): Promise<LinkRow | undefined> {
    return db
      .selectFrom('links')
      .selectAll()
      .where('account_id', '=', fields.accountId)
      .where('domain', '=', fields.domain.hostname)
      .where('url_hash', '=', fields.urlHash)
      .where('slug', 'is', null)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /**
   * Inserts with ON CONFLICT DO NOTHING and, when a unique index said no, finds out
   * which: the caller's own duplicate (returned), a taken slug (422), or a code
   * collision (another code is drawn).
   */
  private async insert(db: Kysely<Tables>, fields: NewLinkFields): Promise<LinkRow> {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const code = generateCode(this.config.codeLength);
      const inserted = await db
        .insertInto('links')
        .values({
          code,
          domain: fields.domain.hostname,
          key: fields.slug ?? code,
          slug: fields.slug,
          url: fields.url,
          url_hash: fields.urlHash,
          title: fields.title,
          account_id: fields.accountId,
          status: 'public',
          created_at: Date.now(),
          deleted_at: null,
        })
        .onConflict((oc) => oc.doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return inserted;

      if (fields.slug === null) {
        const duplicate = await this.findDuplicate(db, fields);
        if (duplicate) return duplicate;
        continue;
      }
      const holder = await db
        .selectFrom('links')
        .selectAll()
        .where('domain', '=', fields.domain.hostname)
        .where('key', '=', fields.slug)
        .executeTakeFirst();
      if (!holder) continue;
      if (holder.deleted_at === null && holder.account_id === fields.accountId && holder.url === fields.url) return holder;
      throw AppError.invalid('slug', 'unique', 'The slug has already been taken');
    }
    throw new Error(`No free code after ${CODE_ATTEMPTS} attempts; raise CODE_LENGTH`);
  }
}
