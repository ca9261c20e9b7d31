import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { documentedOnly, OPTIONAL_AUTH } from '../http/api-docs.js';
import type { Authenticate } from '../http/auth.js';
import { errorResponse, errorResponses } from '../http/error-schemas.js';
import { DOMAIN_LIST_EXAMPLES } from './domain-errors.js';
import type { DomainService } from './domain-service.js';
import { DomainPageSchema, ListDomainsQuery } from './schemas.js';

const listDomainsSchema = {
  summary: 'List short domains',
  description: 'The short domains the caller may shorten on. Without a token only public domains are listed.',
  tags: ['domains'],
  security: OPTIONAL_AUTH,
  querystring: ListDomainsQuery,
  response: {
    200: DomainPageSchema,
    ...errorResponses(400, 401, 500, 503),
    422: errorResponse(422, { examples: DOMAIN_LIST_EXAMPLES }),
  },
};

export function domainRoutes(domains: DomainService, authenticate: Authenticate) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/shorten-domains',
      { schema: listDomainsSchema, serializerCompiler: documentedOnly, config: { limit: 'read', scope: 'links:read' } },
      async (request) => {
        const caller = await authenticate(request);
        return domains.list(caller, request.query);
      },
    );
  };
}
