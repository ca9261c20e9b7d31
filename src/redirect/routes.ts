import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { documentedOnly } from '../http/api-docs.js';
import { RESERVED_SLUGS } from '../links/codes.js';
import type { ClickCounter } from './click-counter.js';
import type { RedirectAnswer } from './redirect-answer.js';
import type { RedirectTarget } from './redirect-cache.js';
import type { RedirectService } from './redirect-service.js';
import { redirectSchema } from './schemas.js';

/**
 * GET and HEAD /{key} on every short domain; the Host header picks the domain. Most
 * requests are answered before Fastify by redirect/fast-path.ts; this route answers the
 * rest (and app.inject) with the same answers.
 */
export function redirectRoutes(redirects: RedirectService, answer: (target: RedirectTarget | null) => RedirectAnswer, clicks: ClickCounter) {
  return async function (fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/:key', { schema: redirectSchema, serializerCompiler: documentedOnly }, async (request, reply) => {
      // Brief's own words (`/v2`, `/health`, …) are never link keys: they get the not-found
      // handler, which answers JSON E_ROUTE_NOT_FOUND under /v2.
      if (RESERVED_SLUGS.has(request.params.key.toLowerCase())) return reply.callNotFound();
      const target = await redirects.resolve(request.headers.host ?? '', request.params.key);
      if (target && !target.blocked && request.method === 'GET') clicks.count(target.id);
      const { status, headers, body } = answer(target);
      reply.code(status as keyof typeof redirectSchema.response); // one of the documented answers
      for (let i = 0; i < headers.length; i += 2) reply.header(headers[i]!, headers[i + 1]);
      return body === '' ? reply.send() : reply.send(body);
    });
  };
}
