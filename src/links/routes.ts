import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { documentedOnly } from '../http/api-docs.js';
import { AppError } from '../http/app-error.js';
import type { Authenticate } from '../http/auth.js';
import type { LinkService } from './link-service.js';
import { deleteSchema, LinkParamDoc, shortenSchema } from './schemas.js';

export function linkRoutes(links: LinkService, authenticate: Authenticate) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/shorten', { schema: shortenSchema, serializerCompiler: documentedOnly }, async (request) => {
      const caller = await authenticate(request);
      return links.shorten(caller, request.query);
    });

    // `*` so that an unencoded `domain/key` reaches us as well as one encoded path segment.
    app.delete(
      '/links/*',
      {
        schema: deleteSchema,
        serializerCompiler: documentedOnly,
        // The document names the wildcard: DELETE /v2/links/{link}.
        config: { swaggerTransform: ({ schema, url }) => ({ url: url.replace(/\*$/, '{link}'), schema: { ...schema, params: LinkParamDoc } }) },
      },
      async (request) => {
        const caller = await authenticate(request);
        if (caller.anonymous) throw AppError.unauthorized('Deleting a link needs a bearer token');
        await links.delete(caller, request.params['*']);
        return { success: true as const };
      },
    );
  };
}
