import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_ERRORS } from '../accounts/account-errors.js';
import { fieldExample, required } from '../errors.js';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { type ErrorExamples, errorResponse, workspaceCallErrors, workspaceNotFoundResponse } from '../http/error-schemas.js';
import { URL_ERRORS } from '../net/url-errors.js';
import { DOMAIN_ERRORS } from './domain-errors.js';
import type { DomainEntry, DomainService } from './domain-service.js';
import { AddDomainBody, DomainPath, DomainSettingsBody, DomainSuccess, DomainsQuery, V3Domain, V3DomainList } from './v3-schemas.js';

const tags = ['v3 domains'];
const domainNotFound = errorResponse(404, {
  examples: { notFound: DOMAIN_ERRORS.notFound, workspace: ACCOUNT_ERRORS.workspaceNotFound },
  description: "E_NOT_FOUND: not one of the caller's private domains (a public domain, another account's, or none).",
});

const listSchema = {
  summary: 'The short domains',
  description: "The public domains (configured and added) and the caller's private ones.",
  tags,
  security: REQUIRED_AUTH,
  querystring: DomainsQuery,
  response: { 200: V3DomainList, ...workspaceCallErrors(), 404: workspaceNotFoundResponse() },
};

const addSchema = {
  summary: 'Claim a private domain',
  description:
    'A custom short domain of the caller. It is unverified until its DNS TXT record (`verification` in the answer) is ' +
    'checked (`POST /v3/shorten/domains/{domain}/verify`) or an administrator verifies it: the caller can make links on ' +
    'it at once, but it serves nothing, and binds no other account, until then. A name that exists already, a public ' +
    "domain or another host's port of one, or more than DOMAINS_PER_ACCOUNT domains of the account, is 422.",
  tags,
  security: REQUIRED_AUTH,
  querystring: DomainsQuery,
  body: AddDomainBody,
  response: {
    200: V3Domain,
    ...workspaceCallErrors(),
    404: workspaceNotFoundResponse(),
    422: errorResponse(422, {
      examples: {
        taken: DOMAIN_ERRORS.taken,
        claimed: DOMAIN_ERRORS.claimed,
        defaultDomain: DOMAIN_ERRORS.defaultDomain,
        public: DOMAIN_ERRORS.publicDomain,
        limit: DOMAIN_ERRORS.limit,
        hostname: DOMAIN_ERRORS.notAHostname,
        missing: fieldExample('No domain', required('domain')),
        codeLength: DOMAIN_ERRORS.codeLength,
      },
    }),
  },
};

/** The schema of a call on one of the caller's private domains (`/shorten/domains/{domain}`): 404 when it is not one. */
const ownDomainSchema = <Extra extends { body?: TSchema }>(
  summary: string,
  description: string,
  ok: object,
  validation: ErrorExamples,
  extra = {} as Extra,
) => ({
  summary,
  description,
  tags,
  security: REQUIRED_AUTH,
  params: DomainPath,
  querystring: DomainsQuery,
  ...extra,
  response: { 200: ok, ...workspaceCallErrors(), 404: domainNotFound, 422: errorResponse(422, { examples: validation }) },
});

const removeSchema = ownDomainSchema(
  'Remove a private domain',
  "One of the caller's private domains without live links (422 while it has some).",
  DomainSuccess,
  { inUse: DOMAIN_ERRORS.inUse },
);

const settingsSchema = ownDomainSchema(
  "Change a private domain's settings",
  'The length of codes generated on the domain, where its bare address (`/`) redirects, and where its unknown keys ' +
    'redirect instead of the 404 page. The redirects change at once on this instance, within CHANGE_POLL_MS on the others.',
  DomainSuccess,
  {
    codeLength: DOMAIN_ERRORS.codeLength.exampleWith(['randomCodeLength']),
    url: URL_ERRORS.invalid.exampleWith(['homePageRedirectUrl']),
    credentials: URL_ERRORS.credentials.exampleWith(['homePageRedirectUrl']),
    loop: DOMAIN_ERRORS.loop,
  },
  { body: DomainSettingsBody },
);

const verifySchema = ownDomainSchema(
  'Verify a private domain',
  "Looks up the domain's `_brief-verify` TXT record now (DNS only: nothing is fetched from the domain). When it holds " +
    "the claim's `verification.value`, the domain is verified and serves its links from then on, on this instance at " +
    'once and on the others within CHANGE_POLL_MS; otherwise 422 says what was found. A domain verified already answers 200.',
  V3Domain,
  { missing: DOMAIN_ERRORS.noRecord, wrong: DOMAIN_ERRORS.wrongRecord, failed: DOMAIN_ERRORS.lookupFailed },
);

const toV3Domain = (entry: DomainEntry) => ({
  domain: entry.hostname,
  randomCodeLength: entry.codeLength,
  isPrimary: entry.primary,
  isGlobal: entry.visibility === 'public',
  verified: entry.verified,
  ...(entry.verification && { verification: entry.verification }),
  ...(entry.homePageRedirectUrl !== undefined && { homePageRedirectUrl: entry.homePageRedirectUrl }),
  ...(entry.notFoundPageRedirectUrl !== undefined && { notFoundPageRedirectUrl: entry.notFoundPageRedirectUrl }),
});

/** The v3 domain calls (docs/api/v3.md, "Domains"), under /v3; all need a token. */
export function v3DomainRoutes(domains: DomainService, callerIn: WorkspaceCaller) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const options = { serializerCompiler: documentedOnly };

    app.get('/shorten/domains', { ...options, config: { limit: 'read', scope: 'links:read' }, schema: listSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      return (await domains.usableBy(caller)).map(toV3Domain);
    });

    app.put('/shorten/domains', { ...options, config: { limit: 'read', scope: 'domains:write' }, schema: addSchema }, async (request) => {
      const caller = await callerIn(request, request.query.workspaceId, 'account');
      return toV3Domain(await domains.addOwn(caller, request.body.domain, request.body.shortCodeLength));
    });

    app.post(
      '/shorten/domains/:domain/verify',
      { ...options, config: { limit: 'domain-verify', scope: 'domains:write' }, schema: verifySchema },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        return toV3Domain(await domains.verifyOwn(caller, request.params.domain));
      },
    );

    app.delete(
      '/shorten/domains/:domain',
      { ...options, config: { limit: 'read', scope: 'domains:write' }, schema: removeSchema },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        await domains.removeOwn(caller, request.params.domain);
        return { success: true as const };
      },
    );

    app.patch(
      '/shorten/domains/:domain',
      { ...options, config: { limit: 'read', scope: 'domains:write' }, schema: settingsSchema },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        await domains.updateOwn(caller, request.params.domain, request.body ?? {});
        return { success: true as const };
      },
    );
  };
}
