import type { FastifyInstance } from 'fastify';
import type { RedirectPipeline } from './redirect-pipeline.js';

/**
 * GET and HEAD /{key} through Fastify: what the fast path left (percent-encoded keys, a
 * query string, a cache miss on PostgreSQL) and every app.inject, with the same pipeline.
 */
export function redirectRoutes(pipeline: RedirectPipeline) {
  return async (app: FastifyInstance) => {
    app.get<{ Params: { key: string } }>('/:key', async (request, reply) => {
      const answer = await pipeline.answer(request.raw, request.params.key);
      // Not a redirect (a reserved word): the not-found handler answers, JSON under /v2.
      if (answer === undefined) return reply.callNotFound();
      reply.code(answer.status);
      for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i]!, answer.headers[i + 1]);
      return answer.body === '' ? reply.send() : reply.send(answer.body);
    });
  };
}
