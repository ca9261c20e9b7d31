// Why a claim of a private domain through the API is refused (decision 0019); the words are
// domain-errors.ts'.
import type { Caller } from '../accounts/caller.js';
import type { Config } from '../config.js';
import type { BriefError } from '../errors.js';
import type { StoredDomain } from '../storage/stores/domains.js';
import { DOMAIN_ERRORS } from './domain-errors.js';

const withoutPort = (hostname: string) => hostname.replace(/:\d+$/, '');

/** A configured domain, or another port of its host (`host` for `host:3000`), is the administrator's. */
export function refuseConfiguredClaim(config: Config, hostname: string): void {
  const host = withoutPort(hostname);
  const configured = config.publicDomains.find((domain) => withoutPort(domain.hostname) === host);
  if (!configured) return;
  throw configured.hostname === config.defaultDomain.hostname ? DOMAIN_ERRORS.defaultDomain() : DOMAIN_ERRORS.publicDomain();
}

/** Why a name that is stored already cannot be the caller's claim. */
export function takenClaim(caller: Caller, holder: StoredDomain | undefined): BriefError {
  if (holder?.accountId === null) return DOMAIN_ERRORS.publicDomain();
  if (holder === undefined || holder.accountId === caller.accountId) return DOMAIN_ERRORS.taken();
  return DOMAIN_ERRORS.claimed();
}
