import type { FastifyInstance } from 'fastify';
import type { Authenticate } from '../http/auth.js';
import type { DomainService, Visibility } from './domain-service.js';

const listSchema = {
  querystring: {
    type: 'object',
    properties: {
      page: { type: 'integer', minimum: 1, default: 1 },
      perPage: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
      visibility: { type: 'string', enum: ['all', 'public', 'private'], default: 'all' },
    },
  },
} as const;

type ListQuery = { page: number; perPage: number; visibility: 'all' | Visibility };

export function domainRoutes(domains: DomainService, authenticate: Authenticate) {
  return async (app: FastifyInstance) => {
    app.get<{ Querystring: ListQuery }>('/shorten-domains', { schema: listSchema }, async (request) => {
      const caller = await authenticate(request);
      return domains.list(caller, request.query);
    });
  };
}
