import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { documentedOnly, OPTIONAL_AUTH, REQUIRED_AUTH } from '../http/api-docs.js';
import type { Authenticate } from '../http/auth.js';
import { EDGE_ERRORS } from '../http/edge-errors.js';
import { errorResponse, errorResponses, tokenRequiredResponse } from '../http/error-schemas.js';
import { LINK_ERRORS, SHORTEN_EXAMPLES } from './link-errors.js';
import type { LinkService } from './link-service.js';
import { DeleteParams, LinkParamDoc, LinkViewSchema, ShortenQuery } from './schemas.js';

const shortenSchema = {
  summary: 'Shorten a URL',
  description: "Makes a short link, or returns the caller's existing one for the same URL and domain (dedupe) or the same slug (retry).",
  tags: ['links'],
  security: OPTIONAL_AUTH,
  querystring: ShortenQuery,
  response: {
    200: LinkViewSchema,
    ...errorResponses(400, 401, 403, 500, 503),
    422: errorResponse(422, { examples: SHORTEN_EXAMPLES }),
  },
};

const deleteSchema = {
  summary: 'Delete a link',
  description: 'Only the owner may delete; anything else is 404. The short URL stops redirecting at once on every instance.',
  tags: ['links'],
  security: REQUIRED_AUTH,
  params: DeleteParams,
  response: {
    200: Type.Object({ success: Type.Literal(true) }, { additionalProperties: false, examples: [{ success: true }], description: 'Deleted.' }),
    ...errorResponses(400, 403, 500, 503),
    401: tokenRequiredResponse({ noToken: LINK_ERRORS.deleteNeedsToken, badToken: EDGE_ERRORS.badToken }),
    404: errorResponse(404, { examples: { notFound: LINK_ERRORS.notFound } }),
  },
};

export function linkRoutes(links: LinkService, authenticate: Authenticate) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/shorten',
      { schema: shortenSchema, serializerCompiler: documentedOnly, config: { limit: 'links', scope: 'links:write' } },
      async (request) => {
        const caller = await authenticate(request);
        return links.shorten(caller, request.query);
      },
    );

    // `*` so that an unencoded `domain/key` reaches us as well as one encoded path segment.
    app.delete(
      '/links/*',
      {
        schema: deleteSchema,
        serializerCompiler: documentedOnly,
        // The document names the wildcard: DELETE /v2/links/{link}.
        config: {
          limit: 'read',
          scope: 'links:write',
          swaggerTransform: ({ schema, url }) => ({ url: url.replace(/\*$/, '{link}'), schema: { ...schema, params: LinkParamDoc } }),
        },
      },
      async (request) => {
        const caller = await authenticate(request);
        if (caller.anonymous) throw LINK_ERRORS.deleteNeedsToken();
        await links.delete(caller, request.params['*']);
        return { success: true as const };
      },
    );
  };
}
