import pLimit from 'p-limit';
import type { Caller } from '../accounts/caller.js';
import { requireRole } from '../accounts/roles.js';
import type { Config, ShortDomain } from '../config.js';
import type { DomainService, ShortenDomain } from '../domains/domain-service.js';
import { BriefError } from '../errors.js';
import { linkDestination } from '../net/normalize-url.js';
import { PasswordPool } from '../passwords/password-pool.js';
import type { CreateOutcome, LinkChanges, LinkRecord, LinkStatus, LinkStore, NewLink } from '../storage/stores/links.js';
import type { TagStore } from '../storage/stores/tags.js';
import { checkBulkItems } from './bulk-items.js';
import { refuseCodeShapedSlug } from './codes.js';
import type { LinkChangeFeed } from './link-change-feed.js';
import { LINK_ERRORS } from './link-errors.js';
import { COMMENT_MAX_LENGTH, checkMaxVisits, checkPassword, optionalText, parseExpiry, SEARCH_MAX_LENGTH } from './link-fields.js';
import { type CheckedLink, checkLinkInput, type LinkInput } from './link-input.js';
import { checkPreview } from './link-preview.js';
import { parseLinkReference } from './link-reference.js';
import { checkRules, ruleTargets } from './link-rules.js';
import { type LinkView, shortUrl, toLinkView } from './link-view.js';
import type { ShortenInput } from './schemas.js';
import { checkTags, tagFilterOf } from './tag-names.js';
import { urlHash } from './url-hash.js';
import type { EditBody } from './v3-schemas.js';

export type { LinkInput } from './link-input.js';
export type { ShortenInput } from './schemas.js';

/** A link with the domain it lives on. */
export interface PlacedLink {
  readonly link: LinkRecord;
  readonly domain: ShortDomain;
}

/** A link as the v3 calls answer it: placed, with its clicks and its tags (sorted ignoring case). */
export interface ShownLink extends PlacedLink {
  readonly clicks: number;
  readonly tags: readonly string[];
}

export interface MadeLink extends PlacedLink {
  /** An existing link was returned (dedupe or a repeated request), not a new one made. */
  readonly reused: boolean;
}

/** A checked link to insert, on its domain; `reuse`: the caller asked for an existing link. */
interface PlannedWrite {
  readonly link: NewLink;
  readonly domain: ShortenDomain;
  readonly reuse: boolean;
  /** Its tags, written once it is made (none on a link returned instead). */
  readonly tags: readonly string[];
}

/** An item of a bulk create refused at write time, with its (normalized) url. */
interface RefusedItem {
  readonly url: string;
  readonly error: BriefError;
}

export class LinkService {
  /** Links this service has made since the process started (GET /metrics reads it). */
  created = 0;
  /** Links refused since the process started because their destination host is blocked (GET /metrics). */
  blockedRefusals = 0;

  constructor(
    private readonly config: Config,
    private readonly store: LinkStore,
    private readonly tags: Pick<TagStore, 'setTags' | 'tagsOf'>,
    private readonly domains: DomainService,
    private readonly changes: Pick<LinkChangeFeed, 'announce'>,
    /** The destination blocklist (abuse/blocked-hosts.ts): a blocked host, or a subdomain of one, is refused. */
    private readonly blockedHosts: { covers(hostname: string): boolean } = { covers: () => false },
    /** Where a link's password is hashed: the bounded, niced threads every password shares (busy: 503). */
    private readonly passwords: Pick<PasswordPool, 'hash'> = new PasswordPool(),
  ) {}

  /** GET /v2/shorten: a new link, or the caller's existing one for the same URL (dedupe) or slug (retry). */
  async shorten(caller: Caller, input: ShortenInput): Promise<LinkView> {
    const { link, domain } = await this.create(caller, { ...input, reuseExisting: true });
    return toLinkView(link, domain);
  }

  /** Makes a link, or with reuseExisting finds the caller's existing one; see LinkInput. */
  async create(caller: Caller, input: LinkInput): Promise<MadeLink> {
    requireRole(caller, 'links:write');
    const plan = await this.plan(caller, checkLinkInput(input, this.config.allowUrlCredentials));
    if ('found' in plan) return plan.found;
    const made = this.settle(plan, await this.store.create(plan.link));
    await this.tagMade(caller, [[plan, made]]);
    return made;
  }

  /**
   * The tags of links just made, in one write after theirs: a link made (not one returned instead, whose tags stay as
   * they are) takes its item's tags. The answer waits for both writes.
   */
  private async tagMade(caller: Caller, made: ReadonlyArray<readonly [PlannedWrite, MadeLink | RefusedItem]>): Promise<void> {
    const tagged = made.flatMap(([plan, result]) =>
      'link' in result && !result.reused && plan.tags.length > 0 ? [{ linkId: result.link.id, tags: plan.tags }] : [],
    );
    await this.tags.setTags(caller.accountId, tagged);
  }

  /**
   * POST /v3/shorten/bulk (decision 0017). Every item's fields are checked first: one bad
   * field refuses the whole request (a validation error naming it, `0.url`) and nothing is
   * made. Then each item is made as create() makes it, results in the items' order: what
   * can fail only at write time (a slug taken, a blocked host, a domain the caller may not
   * use) refuses that item alone. The links are written together in one durable write; a
   * database outage fails the request.
   */
  async createMany(caller: Caller, items: readonly unknown[]): Promise<Array<MadeLink | RefusedItem>> {
    requireRole(caller, 'links:write');
    const inputs = checkBulkItems(items, this.config.allowUrlCredentials);
    const refuse = (input: CheckedLink, error: unknown): RefusedItem => {
      if (error instanceof BriefError && error.code === 'E_VALIDATION_ERROR') return { url: input.url.href, error };
      throw error;
    };
    // The items' passwords are hashed one after another: a bulk call takes one place in the password
    // threads' queue at a time, never the whole queue from the visitors' forms.
    const oneAtATime = pLimit(1);
    const hash = (password: string) => oneAtATime(() => this.passwords.hash('link', password));
    const plans = await Promise.all(
      inputs.map(async (input) => {
        try {
          return await this.plan(caller, input, hash);
        } catch (error) {
          return refuse(input, error);
        }
      }),
    );
    const writes = plans.filter((plan): plan is PlannedWrite => 'link' in plan);
    const outcomes = writes.length === 0 ? [] : await this.store.createMany(writes.map((write) => write.link));
    let written = 0;
    const settled: Array<readonly [PlannedWrite, MadeLink | RefusedItem]> = [];
    const results = plans.map((plan, i) => {
      if ('error' in plan) return plan;
      if ('found' in plan) return plan.found;
      let result: MadeLink | RefusedItem;
      try {
        result = this.settle(plan, outcomes[written++]!);
      } catch (error) {
        result = refuse(inputs[i]!, error);
      }
      settled.push([plan, result]);
      return result;
    });
    await this.tagMade(caller, settled);
    return results;
  }

  /** Places a checked link: the row to insert, or (the dedupe read, no write) the caller's existing link. */
  private async plan(
    caller: Caller,
    input: CheckedLink,
    hash = (password: string) => this.passwords.hash('link', password),
  ): Promise<PlannedWrite | { found: MadeLink }> {
    const { url, slug, title, comment, password, expiresAt } = input;
    const domain = await this.domains.forShorten(caller, input.domain);
    refuseCodeShapedSlug(slug, domain.codeLength);
    await this.domains.refuseLoop(caller, url);
    this.refuseBlocked(url);
    await this.refuseRuleTargets(caller, input.rules);
    if (input.preview?.image) this.refuseBlocked(new URL(input.preview.image), 'preview.image');

    const { reuseExisting: reuse, forwardQuery, rules, maxVisits, preview } = input;
    // A password, an expiry, forwarding turned off, rules, a visit limit or a card make a link of its own: never
    // returned for another request, never returned to one.
    const ordinary = password === null && expiresAt === null && forwardQuery && rules.length === 0 && maxVisits === null && preview === null;
    const fields = {
      accountId: caller.accountId,
      domain: domain.hostname,
      codeLength: domain.codeLength,
      slug,
      url: url.href,
      urlHash: urlHash(url.href),
      title,
      comment,
      expiresAt,
      reusable: ordinary,
      reuseExisting: reuse && ordinary,
      forwardQuery,
      rules,
      maxVisits,
      preview,
    };
    // Fast path for a repeated URL: a read, no write. The unique index still decides races.
    if (fields.reuseExisting && slug === null) {
      const known = await this.store.findDuplicate(fields.accountId, fields.domain, fields.urlHash);
      if (known) return { found: { link: known, domain, reused: true } };
    }
    const passwordHash = password === null ? null : await hash(password);
    return { link: { ...fields, passwordHash }, domain, reuse, tags: input.tags };
  }

  /** What an insert came to, as the caller sees it; a slug held by another link is refused. */
  private settle(plan: PlannedWrite, outcome: CreateOutcome): MadeLink {
    const { link: fields, domain, reuse } = plan;
    if ('created' in outcome) {
      this.created++;
      this.changes.announce(outcome.created.domain, outcome.created.key);
      return { link: outcome.created, domain, reused: false };
    }
    if ('duplicate' in outcome) return { link: outcome.duplicate, domain, reused: true };
    // The same request again (an idempotent retry) gets the same link; any other use of the slug is refused.
    const holder = outcome.slugTaken;
    if (reuse && holder.deletedAt === null && holder.accountId === fields.accountId && holder.url === fields.url) {
      return { link: holder, domain, reused: true };
    }
    throw LINK_ERRORS.slugTaken();
  }

  /** DELETE /v2/links/{link}: only the owner may delete; anything else is "not found". */
  async delete(caller: Caller, reference: string): Promise<void> {
    const link = await this.find(reference, caller.accountId);
    if (!link) throw LINK_ERRORS.notFound();
    // After the lookup: another workspace's link stays "not found" to a role that may not delete.
    requireRole(caller, 'links:write');
    if (!(await this.store.markDeleted(link))) throw LINK_ERRORS.notFound();
    this.changes.announce(link.domain, link.key);
  }

  /** One of the caller's live links by domain and key (slug or code); anyone else's is "not found". */
  async own(caller: Caller, domain: string, key: string): Promise<ShownLink> {
    const link = await this.find(`${domain}/${key}`, caller.accountId);
    if (!link) throw LINK_ERRORS.notFound();
    return this.shown(link);
  }

  /** A link with its domain, clicks and tags. */
  private async shown(link: LinkRecord): Promise<ShownLink> {
    const [domain, clicks, tags] = await Promise.all([this.domainOf(link), this.store.clicksOf(link.id), this.tags.tagsOf([link.id])]);
    return { link, domain, clicks, tags: tags.get(link.id) ?? [] };
  }

  /** The short URLs of the caller's links among these ids (deleted ones included), by id. */
  async shortUrls(caller: Caller, ids: readonly number[]): Promise<Map<number, string>> {
    const links = await this.store.findByIds(caller.accountId, ids);
    return new Map(await Promise.all(links.map(async (link) => [Number(link.id), shortUrl(link, await this.domainOf(link))] as const)));
  }

  /**
   * The caller's live links, newest first, a page at a time; `search` keeps those with it in their key, URL or comment,
   * `filter` those with (or without) the tags it names. The page's tags are one read.
   */
  async list(
    caller: Caller,
    page: number,
    perPage: number,
    search = '',
    filter: { tags?: string; tagMode?: 'any' | 'all'; excludeTags?: string } = {},
  ): Promise<{ total: number; links: ShownLink[] }> {
    // A page past the end is empty; an absurd one (page=1e20) must not reach SQL as an offset no integer column holds.
    const offset = Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER);
    // No NUL: PostgreSQL cannot take it in a text parameter (a 500 there, found by the property test).
    const text = optionalText('search', search.trim(), SEARCH_MAX_LENGTH) ?? '';
    const { total, links } = await this.store.listByAccount(caller.accountId, offset, perPage, text, tagFilterOf(filter));
    const tags = await this.tags.tagsOf(links.map(({ link }) => link.id));
    const shown = await Promise.all(
      links.map(async ({ link, clicks }) => ({ link, clicks, domain: await this.domainOf(link), tags: tags.get(link.id) ?? [] })),
    );
    return { total, links: shown };
  }

  /** Edits one of the caller's links (absent fields stay, null clears); the redirect changes on every instance as a delete does. */
  async edit(caller: Caller, domain: string, key: string, edit: EditBody): Promise<ShownLink> {
    const link = await this.find(`${domain}/${key}`, caller.accountId);
    if (!link) throw LINK_ERRORS.notFound();
    requireRole(caller, 'links:write');
    const changes: { -readonly [K in keyof LinkChanges]: LinkChanges[K] } = {};
    if (edit.url !== undefined) {
      const url = linkDestination(edit.url, this.config.allowUrlCredentials);
      await this.domains.refuseLoop(caller, url);
      this.refuseBlocked(url);
      changes.url = { href: url.href, hash: urlHash(url.href) };
    }
    if (edit.comment !== undefined) changes.comment = optionalText('comment', edit.comment, COMMENT_MAX_LENGTH);
    if (edit.expiredAt !== undefined) changes.expiresAt = edit.expiredAt === null ? null : parseExpiry(edit.expiredAt);
    if (edit.forwardQuery !== undefined) changes.forwardQuery = edit.forwardQuery;
    if (edit.rules !== undefined) {
      changes.rules = checkRules(edit.rules, this.config.allowUrlCredentials);
      await this.refuseRuleTargets(caller, changes.rules);
    }
    if (edit.maxVisits !== undefined) changes.maxVisits = checkMaxVisits(edit.maxVisits);
    if (edit.tags !== undefined) changes.tags = checkTags(edit.tags);
    if (edit.preview !== undefined) {
      changes.preview = checkPreview(edit.preview, this.config.allowUrlCredentials);
      if (changes.preview?.image) this.refuseBlocked(new URL(changes.preview.image), 'preview.image');
    }
    if (edit.password !== undefined)
      changes.passwordHash = edit.password === null ? null : await this.passwords.hash('link', checkPassword(edit.password));
    const updated = await this.store.update(link, changes);
    if (!updated) throw LINK_ERRORS.notFound();
    this.changes.announce(link.domain, link.key);
    return this.shown(updated);
  }

  /** DELETE of one of the caller's links by domain and key. */
  async deleteOwn(caller: Caller, domain: string, key: string): Promise<void> {
    await this.delete(caller, `${domain}/${key}`);
  }

  /** `brief link block|unblock`: an administrator's switch (with a reason, when blocking); a blocked link answers 410. */
  async setStatus(reference: string, status: LinkStatus, reason?: string): Promise<LinkView> {
    const link = await this.find(reference);
    if (!link) throw LINK_ERRORS.noLiveLink(reference);
    await this.store.setStatus(link, status, reason?.trim() || null);
    this.changes.announce(link.domain, link.key);
    return toLinkView({ ...link, status }, await this.domainOf(link));
  }

  /** `brief link delete`: an administrator deletes a live link, whoever owns it; its short URL answers 404 from then on. */
  async remove(reference: string): Promise<LinkView> {
    const link = await this.find(reference);
    if (!link || !(await this.store.markDeleted(link))) throw LINK_ERRORS.noLiveLink(reference);
    this.changes.announce(link.domain, link.key);
    return toLinkView(link, await this.domainOf(link));
  }

  /** `brief link show`: a live link by reference, whoever owns it, with its click count. */
  async show(reference: string): Promise<LinkView & { clicks: number; createdAt: string; blockReason?: string | null }> {
    const link = await this.find(reference);
    if (!link) throw LINK_ERRORS.noLiveLink(reference);
    return {
      ...toLinkView(link, await this.domainOf(link)),
      clicks: await this.store.clicksOf(link.id),
      createdAt: new Date(link.createdAt).toISOString(),
      ...(link.status === 'blocked' && { blockReason: await this.store.blockReasonOf(link.id) }),
    };
  }

  private refuseBlocked(url: URL, field = 'url'): void {
    if (this.blockedHosts.covers(url.hostname)) {
      this.blockedRefusals++;
      throw LINK_ERRORS.blockedHost(field);
    }
  }

  /** A rule's target is refused as a link's url is: not a short domain (a loop), not a blocked host. */
  private async refuseRuleTargets(caller: Caller, rules: CheckedLink['rules']): Promise<void> {
    for (const { url, field } of ruleTargets(rules)) {
      await this.domains.refuseLoop(caller, url, field);
      this.refuseBlocked(url, field);
    }
  }

  private async domainOf(link: LinkRecord): Promise<ShortDomain> {
    return (await this.domains.find(link.domain)) ?? { hostname: link.domain, urlPrefix: `https://${link.domain}` };
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
