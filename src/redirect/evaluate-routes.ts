import { isIP } from 'node:net';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { documentedOnly, REQUIRED_AUTH } from '../http/api-docs.js';
import type { WorkspaceCaller } from '../http/auth.js';
import { errorResponse, workspaceCallErrors } from '../http/error-schemas.js';
import { LINK_NOT_FOUND_EXAMPLES } from '../links/link-errors.js';
import { EXPIRY_ERRORS, parseInstant } from '../links/link-fields.js';
import type { LinkService } from '../links/link-service.js';
import { LinkPath, LinkQuery } from '../links/v3-schemas.js';
import { type PlaceLookup, visitorOf } from '../visitors/visitor.js';
import { evaluateVisit } from './evaluate-visit.js';
import { REDIRECT_ERRORS } from './redirect-errors.js';

const text = (description: string, example: string) => Type.Optional(Type.String({ description, examples: [example] }));

const EvaluateBody = Type.Object(
  {
    userAgent: text('The visitor’s `User-Agent` header.', 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Mobile Safari/537.36'),
    acceptLanguage: text('The visitor’s `Accept-Language` header.', 'de-CH,de;q=0.9,en;q=0.5'),
    country: text('The visitor’s country (ISO 3166-1 alpha-2); absent: the one `ip` is in, when given.', 'CH'),
    ip: text('The visitor’s address (IPv4 or IPv6).', '203.0.113.7'),
    query: text('The query string of the visit, without its `?`.', 'utm_source=newsletter&ref=x'),
    referrer: text('The visitor’s `Referer` header.', 'https://news.example.org/today'),
    at: text('When the visit happens (ISO 8601 with a zone); absent: now.', '2027-03-01T09:30:00Z'),
  },
  { description: 'A visit to try: every field optional.' },
);

const EvaluateResult = Type.Object(
  {
    url: Type.String({
      description: 'Where the redirect would send the visit: the target chosen, with the visit’s query when the link forwards it.',
    }),
    rule: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'The index of the rule taken; null for the link’s own url.' }),
  },
  { examples: [{ url: 'https://example.com/newsletter-landing?utm_source=newsletter&ref=x', rule: 1 }] },
);

const evaluateSchema = {
  summary: 'Try a visit against a link’s rules',
  description:
    "Where the link's redirect would send a visit like this one, by the same evaluation as the redirect (its rules " +
    'in order, then its query forwarding), without counting a visit. A password or an expiry does not stop the ' +
    'evaluation. Any of the caller’s links may be tried; another account’s is not found.',
  tags: ['v3 links'],
  security: REQUIRED_AUTH,
  params: LinkPath,
  querystring: LinkQuery,
  body: EvaluateBody,
  response: {
    200: EvaluateResult,
    ...workspaceCallErrors(),
    404: errorResponse(404, { examples: LINK_NOT_FOUND_EXAMPLES, description: "E_NOT_FOUND: no such live link among the caller's own." }),
    422: errorResponse(422, {
      examples: { at: EXPIRY_ERRORS.impossibleDate.exampleWith(['at', '2027-02-30T09:00:00Z']), ip: REDIRECT_ERRORS.notAnAddress },
    }),
  },
};

/**
 * POST /v3/shorten/{domain}/{slug}/evaluate. `forwardQuery`: FORWARD_QUERY (off: no query is added for any link);
 * `places`: the lookup of an address's country, as the redirect has it.
 */
export function evaluateRoutes(links: LinkService, callerIn: WorkspaceCaller, forwardQuery: boolean, places?: PlaceLookup) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.post(
      '/shorten/:domain/:slug/evaluate',
      { serializerCompiler: documentedOnly, config: { limit: 'read', scope: 'links:read' }, schema: evaluateSchema },
      async (request) => {
        const caller = await callerIn(request, request.query.workspaceId, 'account');
        const { link } = await links.own(caller, request.params.domain, request.params.slug);
        const { at, ip, ...rest } = request.body ?? {};
        if (ip !== undefined && isIP(ip) === 0) throw REDIRECT_ERRORS.notAnAddress('ip');
        const visitor = visitorOf({ ...rest, ...(ip !== undefined && { ip }), ...(at !== undefined && { at: parseInstant(at, 'at') }) }, places);
        const forwarded = forwardQuery && rest.query !== undefined ? rest.query : undefined;
        return evaluateVisit(link, forwarded, visitor);
      },
    );
  };
}
