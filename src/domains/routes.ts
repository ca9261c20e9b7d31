import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { documentedOnly } from '../http/api-docs.js';
import type { Authenticate } from '../http/auth.js';
import type { DomainService } from './domain-service.js';
import { listDomainsSchema, type ListDomainsQuery } from './schemas.js';

export function domainRoutes(domains: DomainService, authenticate: Authenticate) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/shorten-domains', { schema: listDomainsSchema, serializerCompiler: documentedOnly }, async (request) => {
      const caller = await authenticate(request);
      // Every parameter has a default, which validation has filled in.
      return domains.list(caller, request.query as ListDomainsQuery);
    });
  };
}
