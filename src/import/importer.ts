// `brief import` (decision 0025): rows read from a file are checked as a shorten would
// check them (URL, blocked host, short domain, key), placed on an account and a domain, and written a
// batch at a time. A row that cannot go in is reported with where it was and why; the rest go in.
import type { Caller } from '../accounts/caller.js';
import type { ShortenDomain } from '../domains/domain-service.js';
import { BriefError } from '../errors.js';
import { LINK_KEY, RESERVED_SLUGS } from '../links/codes.js';
import { COMMENT_MAX_LENGTH, checkMaxVisits, MAX_VISITS_LIMIT, optionalText, TITLE_MAX_LENGTH } from '../links/link-fields.js';
import { checkPreview } from '../links/link-preview.js';
import { checkRules, type RuleInput, ruleTargets } from '../links/link-rules.js';
import { checkTags } from '../links/tag-names.js';
import { urlHash } from '../links/url-hash.js';
import { linkDestination } from '../net/normalize-url.js';
import type { ImportedLink, ImportStore } from '../services.js';
import type { StoredPreview, StoredRule } from '../storage/stores/links.js';
import { MalformedInput } from './csv-records.js';
import type { SourceRow } from './source-rows.js';

/** What the importer needs of the services and storage (the CLI hands them over; tests may too). */
export interface ImportDeps {
  readonly accounts: {
    byName(name: string): Promise<{ id: number; name: string }>;
    create(name: string): Promise<{ id: number; name: string }>;
  };
  readonly domains: {
    forShorten(caller: Caller, requested: string | undefined): Promise<ShortenDomain>;
    isShortHost(caller: Caller, url: URL): Promise<boolean>;
  };
  readonly blockedHosts: { covers(hostname: string): boolean };
  /** Running servers' caches hear of each new link (Redis when configured; else their 2-second miss entries expire). */
  readonly changes: { announce(domain: string, key: string): void };
  readonly store: ImportStore;
  readonly allowUrlCredentials: boolean;
}

export interface ImportOptions {
  /** The format's family: rows already imported from it are skipped (`brief`, `yourls`, …). */
  readonly source: string;
  /** Every link goes to this account; otherwise a Brief export's owner (made when missing), else `anonymous`. */
  readonly account?: string;
  readonly dryRun: boolean;
  /** No other process (a server) has the database open: its batches may be written back to back. */
  readonly alone?: boolean;
  /** Rows a write takes: short enough that a running server's writes wait a few milliseconds, not seconds. */
  readonly batchSize?: number;
  /** Called after every batch, and for each row refused (progress and report). */
  readonly onProgress?: (tally: ImportTally) => void;
  readonly onProblem?: (problem: ImportProblem) => void;
}

export interface ImportTally {
  rows: number;
  imported: number;
  skipped: number;
  refused: number;
  /** The longest one batch's write took (ms): about how long a running server's writes waited at worst. */
  longestWriteMs: number;
}

export interface ImportProblem {
  readonly where: string;
  readonly reason: string;
}

const ANONYMOUS = 'anonymous';
/** The first batch's rows; later batches are sized to take about WRITE_TARGET_MS each. */
export const IMPORT_BATCH = 1000;
/**
 * How long one batch's write may hold the write lock: a running server's shortens wait at most about
 * this long (the bound is a second). Longer batches commit (fsync) less often.
 */
const WRITE_TARGET_MS = 100;
const BATCH_RANGE = [100, 20_000] as const;
/** Only for a domain no row was placed on (never, in practice). */
const MIN_CODE_LENGTH = 7;

/** A row to write, with where it was in the file (for the report of a key taken). */
interface Pending {
  readonly link: ImportedLink;
  readonly where: string;
}

export class Importer {
  private readonly accountIds = new Map<string, Promise<number>>();
  private readonly placedDomains = new Map<string, Promise<ShortenDomain | string>>();
  private readonly shortHosts = new Map<string, boolean>();
  private batchSize = IMPORT_BATCH;
  /** Each domain's code length, learnt as rows are placed on it. */
  private readonly codeLengths = new Map<string, number>();

  constructor(private readonly deps: ImportDeps) {}

  async run(rows: AsyncIterable<SourceRow>, options: ImportOptions): Promise<ImportTally> {
    const tally: ImportTally = { rows: 0, imported: 0, skipped: 0, refused: 0, longestWriteMs: 0 };
    this.batchSize = options.batchSize ?? IMPORT_BATCH;
    const fixedBatch = options.batchSize !== undefined;
    this.fitBatch = fixedBatch ? () => undefined : this.fitBatch;
    const refuse = (where: string, reason: string) => {
      tally.refused++;
      options.onProblem?.({ where, reason });
    };
    const fixedAccount = options.account === undefined ? undefined : (await this.deps.accounts.byName(options.account)).id;
    let batch: Pending[] = [];
    // One write in flight while the next batch is read and checked.
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      const pending = batch;
      batch = [];
      await writing;
      writing = this.write(options, pending, tally, refuse);
    };
    try {
      for await (const row of rows) {
        tally.rows++;
        try {
          batch.push({ link: await this.place(row, fixedAccount, options.dryRun), where: row.where });
        } catch (error) {
          if (!(error instanceof Refused)) throw error;
          refuse(row.where, error.message);
        }
        if (batch.length >= this.batchSize) await flush();
      }
    } catch (error) {
      // The file stops being readable (cut short): the rows read before that point still go in, as a
      // re-run would put them in; the caller reports where it stopped.
      if (error instanceof MalformedInput) {
        await flush();
        await writing;
      }
      throw error;
    }
    await flush();
    await writing;
    options.onProgress?.(tally);
    return tally;
  }

  private async write(
    options: ImportOptions,
    pending: Pending[],
    tally: ImportTally,
    refuse: (where: string, reason: string) => void,
  ): Promise<void> {
    if (pending.length > 0) {
      const links = pending.map((p) => p.link);
      // A code as a shorten on the link's domain would make it (the domain's length).
      const codeLength = (domain: string) => this.codeLengths.get(domain) ?? MIN_CODE_LENGTH;
      const began = performance.now();
      const outcomes = await this.deps.store.write(options.source, links, codeLength, options.dryRun, options.alone);
      const took = performance.now() - began;
      tally.longestWriteMs = Math.max(tally.longestWriteMs, took);
      this.fitBatch(links.length, took);
      outcomes.forEach((outcome, i) => {
        const { link, where } = pending[i]!;
        if ('imported' in outcome) {
          tally.imported++;
          if (!options.dryRun) this.deps.changes.announce(outcome.imported.domain, outcome.imported.key);
        } else if ('skipped' in outcome) {
          tally.skipped++;
        } else {
          refuse(where, `the key ${link.key} on ${link.domain} is taken by another link`);
        }
      });
    }
    options.onProgress?.(tally);
  }

  /** Sizes the next batch so that its write takes about WRITE_TARGET_MS, from how long this one took. */
  private fitBatch = (rows: number, ms: number): void => {
    const fitted = Math.round((rows / Math.max(ms, 1)) * WRITE_TARGET_MS);
    this.batchSize = Math.min(Math.max(fitted, BATCH_RANGE[0]), BATCH_RANGE[1]);
  };

  /** A row checked and placed, or Refused with the reason. */
  private async place(row: SourceRow, fixedAccount: number | undefined, dryRun: boolean): Promise<ImportedLink> {
    if (row.problem) throw new Refused(row.problem);
    if (!row.url) throw new Refused('it has no URL');
    if (row.hasPassword) throw new Refused('the link has a password, which no export carries: it is not imported, so that it does not become public');
    const accountId = fixedAccount ?? (await this.accountId(row.owner ?? ANONYMOUS, dryRun));
    const caller: Caller = { accountId, anonymous: fixedAccount === undefined && (row.owner ?? ANONYMOUS) === ANONYMOUS };
    let url: URL;
    try {
      url = linkDestination(row.url, this.deps.allowUrlCredentials);
    } catch (error) {
      throw new Refused(`${reasonOf(error)} (${clip(row.url)})`);
    }
    if (this.deps.blockedHosts.covers(url.hostname)) throw new Refused(`its destination host ${url.hostname} is blocked`);
    if (await this.isShortHost(caller, url)) throw new Refused(`its URL points to a short link domain (${clip(row.url)})`);
    const key = row.key;
    if (key !== undefined && (!LINK_KEY.test(key) || RESERVED_SLUGS.has(key.toLowerCase()))) {
      throw new Refused(`its key "${clip(key)}" cannot be a Brief key (1 to 64 letters, digits, "_" or "-", not a reserved word)`);
    }
    const domain = await this.domain(caller, row.domain);
    let title: string | null;
    let comment: string | null;
    try {
      title = optionalText('title', row.title, TITLE_MAX_LENGTH);
      comment = optionalText('comment', row.comment, COMMENT_MAX_LENGTH);
    } catch (error) {
      throw new Refused(reasonOf(error));
    }
    const rules = await this.rules(caller, row.rules);
    let maxVisits: number | null;
    try {
      maxVisits = row.maxVisits === undefined ? null : checkMaxVisits(row.maxVisits);
    } catch (error) {
      throw new Refused(reasonOf(error));
    }
    const limitedVisits = maxVisits === null ? 0 : countedVisits(row.limitedVisits);
    let tags: string[];
    try {
      tags = row.tags === undefined ? [] : checkTags(row.tags);
    } catch (error) {
      throw new Refused(reasonOf(error));
    }
    const preview = this.preview(row.preview);
    const originDomain = row.domain?.toLowerCase() ?? '';
    const hash = urlHash(url.href);
    return {
      // A row without a key is known by its URL: the same URL in a later run is the same row.
      originKey: key === undefined ? `${originDomain} url:${hash.toString('base64url')}` : `${originDomain}/${key}`,
      accountId,
      domain: domain.hostname,
      key: key ?? null,
      keyIsCode: row.keyIsCode === true,
      url: url.href,
      urlHash: hash,
      title,
      comment,
      createdAt: row.created ?? Date.now(),
      expiresAt: row.expires ?? null,
      status: row.blocked ? 'blocked' : 'public',
      clicks: row.clicks ?? 0,
      forwardQuery: row.forwardQuery !== false,
      rules,
      maxVisits,
      limitedVisits,
      tags,
      preview,
    };
  }

  /** A row's card, checked as the API checks it: the image as a link's url is (https, no blocked host; no loop check). */
  private preview(raw: SourceRow['preview']): StoredPreview | null {
    if (raw === undefined) return null;
    let preview: StoredPreview | null;
    try {
      preview = checkPreview(raw, this.deps.allowUrlCredentials);
    } catch (error) {
      throw new Refused(reasonOf(error));
    }
    const host = preview?.image ? new URL(preview.image).hostname : undefined;
    if (host !== undefined && this.deps.blockedHosts.covers(host)) throw new Refused(`its preview.image host ${host} is blocked`);
    return preview;
  }

  /** A row's redirect rules, checked as the API checks them: each target as a link's url is. */
  private async rules(caller: Caller, raw: readonly unknown[] | undefined): Promise<readonly StoredRule[]> {
    if (raw === undefined) return [];
    let rules: StoredRule[];
    try {
      rules = checkRules(raw as RuleInput[], this.deps.allowUrlCredentials);
    } catch (error) {
      throw new Refused(reasonOf(error));
    }
    for (const { url, field } of ruleTargets(rules)) {
      if (this.deps.blockedHosts.covers(url.hostname)) throw new Refused(`its ${field} host ${url.hostname} is blocked`);
      if (await this.isShortHost(caller, url)) throw new Refused(`its ${field} points to a short link domain (${clip(url.href)})`);
    }
    return rules;
  }

  /** Whether a URL points back at a short domain, asked once per account and origin (imports repeat hosts; the scheme decides the port). */
  private isShortHost(caller: Caller, url: URL): boolean | Promise<boolean> {
    const cacheKey = `${caller.accountId} ${url.origin}`;
    const known = this.shortHosts.get(cacheKey);
    if (known !== undefined) return known;
    return this.deps.domains.isShortHost(caller, url).then((answer) => {
      this.shortHosts.set(cacheKey, answer);
      return answer;
    });
  }

  private accountId(name: string, dryRun: boolean): Promise<number> {
    let id = this.accountIds.get(name);
    if (!id) {
      // A Brief export's owner that this database does not have yet is made (a round trip into an empty database).
      id = this.deps.accounts.byName(name).then(
        (account) => account.id,
        async (error: unknown) => {
          if (!(error instanceof BriefError && error.code === 'E_NOT_FOUND')) throw error;
          // A dry run makes no account: its rows are tried on the anonymous one (nothing is kept).
          if (dryRun) return (await this.deps.accounts.byName(ANONYMOUS)).id;
          try {
            return (await this.deps.accounts.create(name)).id;
          } catch (made) {
            throw new Refused(`its owner "${clip(name)}" is no account and cannot be made: ${reasonOf(made)}`);
          }
        },
      );
      this.accountIds.set(name, id);
    }
    return id.catch((error: unknown) => {
      throw error instanceof Refused ? new Refused(error.message) : error;
    });
  }

  private async domain(caller: Caller, requested: string | undefined): Promise<ShortenDomain> {
    const hostname = requested?.toLowerCase();
    const cacheKey = `${caller.accountId} ${hostname ?? ''}`;
    let placed = this.placedDomains.get(cacheKey);
    if (!placed) {
      placed = this.deps.domains.forShorten(caller, hostname).then(
        (domain) => {
          this.codeLengths.set(domain.hostname, domain.codeLength);
          return domain;
        },
        (error: unknown) => {
          if (!(error instanceof BriefError && error.code === 'E_VALIDATION_ERROR')) throw error;
          return `its domain ${clip(hostname ?? '')} is not a short domain here that this account may use (add it first: brief domain add)`;
        },
      );
      this.placedDomains.set(cacheKey, placed);
    }
    const domain = await placed;
    if (typeof domain === 'string') throw new Refused(domain);
    return domain;
  }
}

/** A row that cannot be imported, and why (reported; the import goes on). */
class Refused extends Error {}

function reasonOf(error: unknown): string {
  if (error instanceof BriefError) return error.message.replace(/^The ([\w.]+) field/, 'its $1');
  throw error;
}

const clip = (value: string) => (value.length > 80 ? `${value.slice(0, 77)}...` : value);

/**
 * The visits a limited link had used where it came from (none when the row does not say): a whole number that the
 * integer column holds. At or over the limit, the link answers 410 from its first visit here.
 */
function countedVisits(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isSafeInteger(value) || value < 0 || value > MAX_VISITS_LIMIT)
    throw new Refused(`its limitedVisits ${value} is not a whole number from 0 to ${MAX_VISITS_LIMIT}`);
  return value;
}
