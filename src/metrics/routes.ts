import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BriefError } from '../errors.js';
import type { Metrics } from './metrics.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * GET /metrics in Prometheus' text format, on the default domain only (any other host: the 404
 * page, as an unknown key). With METRICS_TOKEN, only for `Authorization: Bearer <token>` (else 401
 * in the error shape). Not rate limited, not in the API document, not in the request log.
 */
export function metricsRoutes(metrics: Metrics, defaultHost: string, token: string | undefined) {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return async (app: FastifyInstance) => {
    app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      if ((request.headers.host ?? '').toLowerCase() !== defaultHost) return reply.callNotFound();
      if (expected !== undefined && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
        reply.header('www-authenticate', 'Bearer');
        throw BriefError.unauthorized('GET /metrics needs the METRICS_TOKEN as a bearer token');
      }
      reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store');
      return metrics.registry.metrics();
    });
  };
}
