import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { documentedOnly, NO_AUTH } from '../http/api-docs.js';
import type { Readiness } from './readiness.js';

/** The probes and the metrics: the server's door (app.ts) sends them past the redirect fast path, with string comparisons. */
export const isOperationsPath = (url: string | undefined): boolean => url === '/healthz' || url === '/readyz' || url === '/metrics';

const NotReady = Type.Object({
  status: Type.Literal('not ready'),
  reason: Type.Union([Type.Literal('stopping'), Type.Literal('starting'), Type.Literal('database'), Type.Literal('migrations')]),
  message: Type.String(),
});

const healthzSchema = {
  summary: 'Is the process serving?',
  description:
    'Liveness: 200 whenever the process answers HTTP, whatever the database does. On every host; never a visit, never ' +
    'rate limited, not logged. A probe that gets no answer should restart the process.',
  tags: ['operations'],
  security: NO_AUTH,
  response: {
    200: {
      description: 'The process serves.',
      content: { 'application/json': { schema: Type.Object({ status: Type.Literal('ok') }), example: { status: 'ok' } } },
    },
  },
};

const readyzSchema = {
  summary: 'Should this instance get traffic?',
  description:
    'Readiness: 200 when the database answers (within 2 s), every migration this version needs is applied and the ' +
    'redirect side has started (the link index loaded); 503 otherwise, with the reason, and from the first moment of a ' +
    'stop (SIGTERM) so a load balancer drains the instance. On every host; never a visit, never rate limited, not logged.',
  tags: ['operations'],
  security: NO_AUTH,
  response: {
    200: {
      description: 'Ready for traffic.',
      content: { 'application/json': { schema: Type.Object({ status: Type.Literal('ready') }), example: { status: 'ready' } } },
    },
    503: {
      description: 'Not ready: `stopping`, `starting`, `database` (it does not answer) or `migrations` (some are missing).',
      content: {
        'application/json': {
          schema: NotReady,
          examples: {
            stopping: { value: { status: 'not ready', reason: 'stopping', message: 'The server is stopping' } },
            database: { value: { status: 'not ready', reason: 'database', message: 'The database does not answer' } },
          },
        },
      },
    },
  },
};

/**
 * GET (and HEAD) /healthz and /readyz, on every host. No limit is declared (http/rate-limits.ts),
 * so none applies; the request log stays quiet (a probe every few seconds is not news).
 */
export function healthRoutes(readiness: Readiness) {
  return async (app: FastifyInstance) => {
    const quiet = { serializerCompiler: documentedOnly, logLevel: 'warn' } as const;
    app.get('/healthz', { ...quiet, schema: healthzSchema }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' };
    });
    app.get('/readyz', { ...quiet, schema: readyzSchema }, async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const answer = await readiness.check();
      if (answer.ready) return { status: 'ready' };
      return reply.code(503).send({ status: 'not ready', reason: answer.reason, message: answer.message });
    });
  };
}
