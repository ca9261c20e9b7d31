// The errors of short domains, declared once (decision 0037): the domain service, its checks (domain-claims.ts,
// domain-fields.ts, domain-verification.ts) and the link service (a domain to shorten on) throw them; the routes
// show them in the API document. Most name `domain`, as the v3 calls do; `brief domain …` names `hostname`.
import { BriefError, declareError, fieldExample, notInList, outOfRange, rangeExample, wrongType } from '../errors.js';
import { CODE_LENGTH_MAX, CODE_LENGTH_MIN } from './code-lengths.js';
import { ListDomainsQuery } from './schemas.js';

/** What the verification examples show: a claim's record and value (domain-verification.ts makes real ones). */
const RECORD = '_brief-verify.go.example.com';
const VALUE = 'brief-verify=3q2-7wXkV0b9yUe1cZfN4aLh';
const notVerified = (why: string) => BriefError.invalid('domain', 'verification', `The domain is not verified: ${why}`);

export const DOMAIN_ERRORS = {
  notFound: declareError("Not one of the caller's private domains", () => BriefError.notFound('Domain not found')),
  /** A domain a link may not go on (shortening): unknown, or another account's. */
  notUsable: declareError('Not a domain the caller may use', () => BriefError.invalid('domain', 'exists', 'The selected domain is invalid')),
  /** A destination on one of Brief's own short domains (a link's `url`, a domain's redirects): it would loop. */
  loop: declareError(
    'A URL on a short domain of this server',
    (field: string) => BriefError.invalid(field, 'notShortLink', `The ${field} field must not point to a short link domain`),
    'notFoundPageRedirectUrl',
  ),
  notAHostname: declareError('Not a host name', () =>
    BriefError.invalid('domain', 'hostname', 'The domain field must be a host name, such as go.example.com'),
  ),
  codeLength: declareError(
    'A code length out of range',
    (field: string) => BriefError.field(outOfRange(field, CODE_LENGTH_MIN, CODE_LENGTH_MAX)),
    'shortCodeLength',
  ),
  // A claim refused (decision 0019), in words the claimer can act on.
  taken: declareError('The caller has the domain already', () => BriefError.invalid('domain', 'unique', 'The domain has already been taken')),
  claimed: declareError('Another account claimed the domain', () =>
    BriefError.invalid('domain', 'unique', "The domain has already been claimed by another account; if it is yours, ask this server's administrator"),
  ),
  defaultDomain: declareError('The default domain, on any port', () =>
    BriefError.invalid('domain', 'public', "The domain is this server's default domain (BASE_URL)"),
  ),
  publicDomain: declareError('A public domain, on any port', () =>
    BriefError.invalid('domain', 'public', 'The domain is a public domain of this server'),
  ),
  limit: declareError(
    'DOMAINS_PER_ACCOUNT reached',
    (max: number) =>
      BriefError.invalid(
        'domain',
        'limit',
        max === 0
          ? 'Accounts cannot add domains on this server; ask its administrator'
          : `An account may have at most ${max} domain${max === 1 ? '' : 's'}; remove one first`,
      ),
    10,
  ),
  // A claim's check of its TXT record (domain-verification.ts).
  noRecord: declareError(
    'No TXT record',
    (record: string, value: string) => notVerified(`there is no TXT record at ${record}; add one holding "${value}"`),
    RECORD,
    VALUE,
  ),
  wrongRecord: declareError(
    'A TXT record without the value',
    (record: string, value: string, others: number) =>
      notVerified(`the TXT record at ${record} does not hold "${value}" (found ${others === 1 ? '1 other value' : `${others} other values`})`),
    RECORD,
    VALUE,
    1,
  ),
  lookupFailed: declareError(
    'The DNS lookup failed',
    (record: string, failure: string) => notVerified(`the DNS lookup of ${record} failed (${failure}); try again later`),
    RECORD,
    'ETIMEOUT',
  ),
  /** A row made without a verification value (by an administrator's hand): only an administrator verifies it. */
  adminOnly: () => BriefError.invalid('domain', 'verification', 'The domain can only be verified by an administrator'),
  inUse: declareError(
    'The domain has live links',
    (live: number) =>
      BriefError.invalid(
        'domain',
        'in_use',
        `The domain still has ${live} live link${live === 1 ? '' : 's'}; delete ${live === 1 ? 'it' : 'them'} first`,
      ),
    2,
  ),
  // `brief domain …`: the operator's commands name the domain `hostname`.
  badHostname: (raw: string) => BriefError.invalid('hostname', 'hostname', `"${raw}" is not a valid host name`),
  configuredAlready: (hostname: string) => BriefError.invalid('hostname', 'unique', `${hostname} is already a public domain from the configuration`),
  exists: (hostname: string) => BriefError.invalid('hostname', 'unique', `Domain ${hostname} already exists`),
  configured: (hostname: string) =>
    BriefError.invalid('hostname', 'configured', `${hostname} comes from the configuration (BASE_URL or PUBLIC_DOMAINS); change that instead`),
  stillUsed: (hostname: string, live: number) =>
    BriefError.invalid('hostname', 'in_use', `Domain ${hostname} still has ${live} live link(s); delete them first, or remove it with --with-links`),
  noSuchDomain: (hostname: string) => BriefError.notFound(`No domain ${hostname}`),
};

/** What a page of a list may answer 422 with: the schema's checks of its query (v3's list of links has the same). */
export const DOMAIN_LIST_EXAMPLES = {
  perPage: rangeExample('A number out of range', 'perPage', ListDomainsQuery.properties.perPage),
  page: fieldExample('Not a whole number', wrongType('page', 'integer')),
  visibility: fieldExample('A value not in the list', notInList('visibility')),
};
