// Why a claim of a private domain through the API is refused (decision 0019), in words the
// claimer can act on.
import type { Caller } from '../accounts/caller.js';
import type { Config } from '../config.js';
import { BriefError } from '../errors.js';
import type { StoredDomain } from '../storage/stores/domains.js';

const withoutPort = (hostname: string) => hostname.replace(/:\d+$/, '');

/** A configured domain, or another port of its host (`host` for `host:3000`), is the administrator's. */
export function refuseConfiguredClaim(config: Config, hostname: string): void {
  const host = withoutPort(hostname);
  const configured = config.publicDomains.find((domain) => withoutPort(domain.hostname) === host);
  if (!configured) return;
  const isDefault = configured.hostname === config.defaultDomain.hostname;
  throw BriefError.invalid(
    'domain',
    'public',
    isDefault ? "The domain is this server's default domain (BASE_URL)" : 'The domain is a public domain of this server',
  );
}

/** Why a name that is stored already cannot be the caller's claim. */
export function takenClaim(caller: Caller, holder: StoredDomain | undefined): BriefError {
  if (holder?.accountId === null) return BriefError.invalid('domain', 'public', 'The domain is a public domain of this server');
  if (holder === undefined || holder.accountId === caller.accountId) {
    return BriefError.invalid('domain', 'unique', 'The domain has already been taken');
  }
  return BriefError.invalid(
    'domain',
    'unique',
    "The domain has already been claimed by another account; if it is yours, ask this server's administrator",
  );
}

/** An account with DOMAINS_PER_ACCOUNT domains already. */
export function claimLimit(max: number): BriefError {
  return BriefError.invalid(
    'domain',
    'limit',
    max === 0
      ? 'Accounts cannot add domains on this server; ask its administrator'
      : `An account may have at most ${max} domain${max === 1 ? '' : 's'}; remove one first`,
  );
}
