import { createHash } from 'node:crypto';
import type { Caller } from '../accounts/account-service.js';
import type { Config } from '../config.js';
import type { DomainService } from '../domains/domain-service.js';
import { BriefError } from '../errors.js';
import type { LinkRecord, LinkStatus, LinkStore } from '../storage/stores.js';
import { generateCode, validateSlug } from './codes.js';
import type { LinkChangeFeed } from './link-change-feed.js';
import { parseLinkReference } from './link-reference.js';
import { type LinkView, toLinkView } from './link-view.js';
import { normalizeUrl } from './normalize-url.js';
import type { ShortenInput } from './schemas.js';

export const TITLE_MAX_LENGTH = 512;

export type { ShortenInput } from './schemas.js';

export class LinkService {
  constructor(
    private readonly config: Config,
    private readonly store: LinkStore,
    private readonly domains: DomainService,
    private readonly changes: Pick<LinkChangeFeed, 'announce'>,
  ) {}

  /** GET /v2/shorten: a new link, or the caller's existing one for the same URL (dedupe) or slug (retry). */
  async shorten(caller: Caller, input: ShortenInput): Promise<LinkView> {
    const url = normalizeUrl(input.url);
    const title = input.title ? input.title : null;
    if (title !== null && title.length > TITLE_MAX_LENGTH) {
      throw BriefError.invalid('title', 'maxLength', `The title field must not be greater than ${TITLE_MAX_LENGTH} characters`);
    }
    // PostgreSQL cannot store NUL in text; refuse it on every dialect alike.
    if (title?.includes('\u0000')) throw BriefError.invalid('title', 'regex', 'The title field format is invalid');
    const slug = input.slug ? validateSlug(input.slug) : null;
    const domain = await this.domains.forShorten(caller, input.domain || undefined);
    if (await this.domains.isShortHost(url.host, url.hostname)) {
      throw BriefError.invalid('url', 'notShortLink', 'The url field must not point to a short link domain');
    }

    const link = {
      accountId: caller.accountId,
      domain: domain.hostname,
      slug,
      url: url.href,
      urlHash: createHash('sha256').update(url.href).digest(),
      title,
    };
    // Fast path for a repeated URL: a read, no write. The unique index still decides races.
    const known = slug === null ? await this.store.findDuplicate(link.accountId, link.domain, link.urlHash) : undefined;
    if (known) return toLinkView(known, domain);
    const outcome = await this.store.create(link, () => generateCode(this.config.codeLength));
    if ('created' in outcome) {
      this.changes.announce(outcome.created.domain, outcome.created.key);
      return toLinkView(outcome.created, domain);
    }
    if ('duplicate' in outcome) return toLinkView(outcome.duplicate, domain);
    // The same request again (an idempotent retry) gets the same link; any other use of the slug is refused.
    const holder = outcome.slugTaken;
    if (holder.deletedAt === null && holder.accountId === link.accountId && holder.url === link.url) return toLinkView(holder, domain);
    throw BriefError.invalid('slug', 'unique', 'The slug has already been taken');
  }

  /** DELETE /v2/links/{link}: only the owner may delete; anything else is "not found". */
  async delete(caller: Caller, reference: string): Promise<void> {
    const link = await this.find(reference, caller.accountId);
    if (!link || !(await this.store.markDeleted(link))) throw BriefError.notFound();
    this.changes.announce(link.domain, link.key);
  }

  /** `brief link block|unblock`: an administrator's switch; a blocked link answers 410. */
  async setStatus(reference: string, status: LinkStatus): Promise<LinkView> {
    const link = await this.find(reference);
    if (!link) throw BriefError.notFound(`No live link "${reference}"`);
    await this.store.setStatus(link, status);
    this.changes.announce(link.domain, link.key);
    return this.view({ ...link, status });
  }

  /** `brief link show`: a live link by reference, whoever owns it, with its click count. */
  async show(reference: string): Promise<LinkView & { clicks: number; createdAt: string }> {
    const link = await this.find(reference);
    if (!link) throw BriefError.notFound(`No live link "${reference}"`);
    return { ...(await this.view(link)), clicks: await this.store.clicksOf(link.id), createdAt: new Date(link.createdAt).toISOString() };
  }

  private async view(link: LinkRecord): Promise<LinkView> {
    const domain = (await this.domains.find(link.domain)) ?? { hostname: link.domain, urlPrefix: `https://${link.domain}` };
    return toLinkView(link, domain);
  }

  /**
   * A live link named by a reference, optionally only among one account's links. The key
   * on the domain (slug or code) wins; a bare generated code is accepted as well.
   */
  private async find(reference: string, accountId?: number): Promise<LinkRecord | undefined> {
    const target = parseLinkReference(reference, this.config.defaultDomain.hostname);
    if (!target) return undefined;
    return (
      (await this.store.findByKey(target.domain, target.key, accountId)) ??
      (await this.store.findByCode(target.key, target.explicitDomain ? target.domain : undefined, accountId))
    );
  }
}
