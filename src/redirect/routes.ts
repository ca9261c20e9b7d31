import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { documentedOnly, NO_AUTH } from '../http/api-docs.js';
import { errorMedia, errorResponses } from '../http/error-schemas.js';
import { BLOCKED_PAGE, NOT_FOUND_PAGE } from './pages.js';
import type { RedirectPipeline } from './redirect-pipeline.js';

// The route's parameter and its answers, for the API document; the answers themselves are
// built by redirect-answer.ts.
const redirect = (description: string) => ({
  description: `${description}; \`REDIRECT_STATUS\` picks one of 301, 302, 307, 308 for the whole server. No body.`,
  type: 'null',
  headers: {
    Location: { type: 'string', description: 'The stored long URL.', examples: ['https://example.com/some/long/page'] },
    'Cache-Control': {
      type: 'string',
      description: '`private, max-age=90` for 301 and 308, `no-store` for 302 and 307.',
      examples: ['private, max-age=90'],
    },
  },
});

const html = (example: string) => ({ schema: Type.String({ contentMediaType: 'text/html' }), example });

const redirectSchema = {
  summary: 'Follow a short URL',
  description:
    'GET and HEAD `/{key}` on any configured short domain, chosen by the `Host` header (case-insensitively). ' +
    'A link lives only on its own domain. Each GET of a live link counts a click.',
  tags: ['redirect'],
  security: NO_AUTH,
  params: Type.Object({
    key: Type.String({ description: 'The code or slug of the link.', examples: ['x4Tq9Zb', 'launch'] }),
  }),
  response: {
    301: redirect('Moved Permanently (the default)'),
    302: redirect('Found'),
    307: redirect('Temporary Redirect'),
    308: redirect('Permanent Redirect'),
    404: {
      description:
        'An unknown or deleted link, or an unknown host: a small HTML page. A word Brief keeps for its own routes ' +
        '(`v2`, `api`, `docs`, …) is never a key: under `/v2` it answers JSON `E_ROUTE_NOT_FOUND`.',
      content: { 'text/html': html(NOT_FOUND_PAGE), 'application/json': errorMedia('routeNotFound') },
    },
    410: {
      description: 'A link blocked by the administrator (`brief link block`): a small HTML page.',
      content: { 'text/html': html(BLOCKED_PAGE) },
    },
    ...errorResponses(400, 500, 503),
  },
};

/**
 * GET and HEAD /{key} through Fastify: what the fast path left (percent-encoded keys, a
 * query string, a cache miss on PostgreSQL) and every app.inject, with the same pipeline.
 */
export function redirectRoutes(pipeline: RedirectPipeline) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    app.get('/:key', { schema: redirectSchema, serializerCompiler: documentedOnly }, async (request, reply) => {
      const answer = await pipeline.answer(request.raw, request.params.key);
      // Not a redirect (a reserved word): the not-found handler answers, JSON under /v2.
      if (answer === undefined) return reply.callNotFound();
      reply.code(answer.status as keyof typeof redirectSchema.response); // one of the documented answers
      for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i]!, answer.headers[i + 1]);
      return answer.body === '' ? reply.send() : reply.send(answer.body);
    });
  };
}
