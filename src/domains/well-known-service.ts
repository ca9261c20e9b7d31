// A domain's app-link files, served under `/.well-known/` (decision 0042): the workspace's admins manage those of
// its private domains through the v3 calls, the server's administrator those of any domain with `brief domain
// well-known`, and the redirect side's Host serves them. Read from the database on each fetch: Apple's CDN and
// Google fetch them rarely, and every instance then answers the same at once, with nothing to invalidate.
import type { Caller } from '../accounts/caller.js';
import { requireRole } from '../accounts/roles.js';
import type { WellKnownEntry, WellKnownFile, WellKnownStore } from '../storage/stores/well-known.js';
import { DOMAIN_ERRORS } from './domain-errors.js';
import { domainInPath } from './domain-fields.js';
import type { DomainService } from './domain-service.js';
import { WELL_KNOWN_ERRORS } from './well-known-errors.js';
import { WELL_KNOWN_KINDS, WELL_KNOWN_MAX_BYTES, type WellKnownName } from './well-known-schemas.js';

export type { WellKnownEntry, WellKnownFile } from '../storage/stores/well-known.js';

export const isWellKnownName = (name: string): name is WellKnownName => Object.hasOwn(WELL_KNOWN_KINDS, name);

/** A file's name as a path or a command gives it: one of the two, else not found. */
function fileName(raw: string): WellKnownName {
  if (!isWellKnownName(raw)) throw WELL_KNOWN_ERRORS.unknownName();
  return raw;
}

/**
 * A file's text as it will be served, checked: at most 64 KB, JSON, and the kind its name needs. The text is
 * kept as it came (its spacing, its key order): what Apple and Google read is what the owner wrote.
 */
export function checkWellKnownFile(name: WellKnownName, body: unknown): string {
  const text = typeof body === 'string' ? body : '';
  const bytes = Buffer.byteLength(text);
  if (bytes > WELL_KNOWN_MAX_BYTES) throw WELL_KNOWN_ERRORS.tooLarge(name, bytes);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw WELL_KNOWN_ERRORS.notJson(name, text.trim() === '' ? 'the body is empty' : (error as Error).message);
  }
  const kind = WELL_KNOWN_KINDS[name];
  const isArray = Array.isArray(parsed);
  const fits = kind === 'array' ? isArray : typeof parsed === 'object' && parsed !== null && !isArray;
  if (!fits) throw WELL_KNOWN_ERRORS.wrongKind(name, kind);
  return text;
}

export class WellKnownService {
  constructor(
    private readonly domains: DomainService,
    private readonly store: WellKnownStore,
  ) {}

  /** GET /v3/shorten/domains/{domain}/well-known: the files of one of the caller's private domains. */
  async listOwn(caller: Caller, rawDomain: string): Promise<WellKnownEntry[]> {
    const domain = await this.domains.ownDomain(caller, rawDomain);
    return this.store.list(domain.hostname);
  }

  /** GET …/well-known/{name}: one file of one of the caller's private domains (any role reads, as the domains' list). */
  async getOwn(caller: Caller, rawDomain: string, rawName: string): Promise<WellKnownFile> {
    const name = fileName(rawName);
    const domain = await this.domains.ownDomain(caller, rawDomain);
    return this.existing(domain.hostname, name);
  }

  /** PUT …/well-known/{name}: sets a file, replacing the one there; an admin's or owner's (domains:write). */
  async putOwn(caller: Caller, rawDomain: string, rawName: string, body: unknown): Promise<WellKnownEntry> {
    const name = fileName(rawName);
    const domain = await this.domains.ownDomain(caller, rawDomain);
    requireRole(caller, 'domains:write');
    return entryOf(await this.store.put(domain.hostname, name, checkWellKnownFile(name, body)));
  }

  /** DELETE …/well-known/{name}: 404 when the domain has no such file. */
  async removeOwn(caller: Caller, rawDomain: string, rawName: string): Promise<void> {
    const name = fileName(rawName);
    const domain = await this.domains.ownDomain(caller, rawDomain);
    requireRole(caller, 'domains:write');
    if (!(await this.store.remove(domain.hostname, name))) throw WELL_KNOWN_ERRORS.noFile(domain.hostname, name);
  }

  /** `brief domain well-known set`: any domain the server serves, the configured ones and public ones included. */
  async put(rawHostname: string, rawName: string, body: string): Promise<WellKnownEntry> {
    const name = fileName(rawName);
    const hostname = domainInPath(rawHostname);
    if (hostname === undefined || (await this.domains.find(hostname)) === undefined) throw DOMAIN_ERRORS.noSuchDomain(rawHostname);
    return entryOf(await this.store.put(hostname, name, checkWellKnownFile(name, body)));
  }

  /**
   * `brief domain well-known show|remove`: whatever the table holds for the name, so the files of a domain no longer
   * configured (BASE_URL changed) can still be read and removed.
   */
  get(rawHostname: string, rawName: string): Promise<WellKnownFile> {
    return this.existing(adminHostname(rawHostname), fileName(rawName));
  }

  list(rawHostname: string): Promise<WellKnownEntry[]> {
    return this.store.list(adminHostname(rawHostname));
  }

  async remove(rawHostname: string, rawName: string): Promise<void> {
    const name = fileName(rawName);
    const hostname = adminHostname(rawHostname);
    if (!(await this.store.remove(hostname, name))) throw WELL_KNOWN_ERRORS.noFile(hostname, name);
  }

  /**
   * GET /.well-known/{name} on a domain (as the redirect side resolves the request's Host): the file's text, or
   * undefined when the domain has none or serves nothing yet (an unverified claim, decision 0019).
   */
  async served(domain: string, name: WellKnownName): Promise<string | undefined> {
    const file = await this.store.get(domain, name);
    return file !== undefined && (await this.domains.serves(domain)) ? file.body : undefined;
  }

  private async existing(hostname: string, name: WellKnownName): Promise<WellKnownFile> {
    const file = await this.store.get(hostname, name);
    if (file === undefined) throw WELL_KNOWN_ERRORS.noFile(hostname, name);
    return file;
  }
}

const entryOf = (file: WellKnownFile): WellKnownEntry => ({
  domain: file.domain,
  name: file.name,
  bytes: Buffer.byteLength(file.body),
  updatedAt: file.updatedAt,
});

/** A domain as the CLI names it: any case, a scheme or a trailing slash tolerated; else as given (and found nowhere). */
const adminHostname = (raw: string): string => domainInPath(raw) ?? raw;
