// Proof that whoever claims a private domain controls it (decision 0019): a DNS TXT record at
// `_brief-verify.DOMAIN` holding a value Brief made for the claim. Read with Node's resolver only:
// Brief never fetches anything from the domain itself.
import { randomBytes } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import type { BriefError } from '../errors.js';
import type { DomainVerification } from '../storage/stores/domains.js';
import { DOMAIN_ERRORS } from './domain-errors.js';

/** The label before the domain's name where its TXT record is looked for. */
export const VERIFY_LABEL = '_brief-verify';

/** Each try waits this long for an answer, and a lookup tries twice: at most a few seconds per check. */
const DNS_TIMEOUT_MS = 2500;
const DNS_TRIES = 2;

/**
 * Whether a domain serves its links, its home and not-found redirects: only once its control is
 * proven (or an administrator added it). Until then its links answer as unknown ones.
 */
export const servesRedirects = (domain: DomainVerification): boolean => domain.verifiedAt !== null;

/** The name whose TXT record proves control of `hostname` (host[:port]: DNS knows no ports). */
export function verificationRecord(hostname: string): string {
  return `${VERIFY_LABEL}.${hostname.replace(/:\d+$/, '')}`;
}

/** A new claim's value, to be published in its TXT record. */
export function newVerificationToken(): string {
  return `brief-verify=${randomBytes(18).toString('base64url')}`;
}

/** What a TXT lookup found: the records' values (each one's strings joined), none, or a failure. */
export type TxtAnswer = { readonly values: readonly string[] } | { readonly failed: string };

export type TxtLookup = (name: string) => Promise<TxtAnswer>;

/**
 * TXT lookups through Node's resolver (c-ares): the system's DNS servers, or DNS_SERVERS
 * (`ip[:port]`, for tests and split-horizon setups).
 */
export function dnsTxtLookup(servers: readonly string[] | undefined): TxtLookup {
  const resolver = new Resolver({ timeout: DNS_TIMEOUT_MS, tries: DNS_TRIES });
  if (servers && servers.length > 0) resolver.setServers(servers);
  return async (name) => {
    try {
      return { values: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      // No such name, or no TXT record at it: an answer, not a failure.
      if (code === 'ENOTFOUND' || code === 'ENODATA') return { values: [] };
      return { failed: code };
    }
  };
}

/** Why a check did not verify the domain, as the error its owner gets (in words they can act on); undefined when it did. */
export function verificationProblem(record: string, token: string, answer: TxtAnswer): BriefError | undefined {
  if ('failed' in answer) return DOMAIN_ERRORS.lookupFailed(record, answer.failed);
  if (answer.values.includes(token)) return undefined;
  if (answer.values.length === 0) return DOMAIN_ERRORS.noRecord(record, token);
  return DOMAIN_ERRORS.wrongRecord(record, token, answer.values.length);
}
