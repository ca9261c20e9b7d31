import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { BriefError } from '../errors.js';
import type { Metrics } from './metrics.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The Host header without its port (an IPv6 literal keeps its brackets off). */
function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Where /metrics answers: the default domain, and an instance's own address (an IP literal or
 * `localhost`, as Prometheus scrapes each instance) — never another short domain's name, where
 * `/metrics` is just a reserved word.
 */
export function servesMetrics(host: string | undefined, defaultHost: string): boolean {
  const lower = (host ?? '').toLowerCase();
  if (lower === defaultHost) return true;
  const name = hostName(lower);
  return name === 'localhost' || isIP(name) !== 0;
}

/**
 * GET /metrics in Prometheus' text format, on the default domain and the instance's own address
 * (servesMetrics; any other host: the 404 page, as an unknown key). With METRICS_TOKEN, only for `Authorization: Bearer <token>` (else 401
 * in the error shape). Not rate limited, not in the API document, not in the request log.
 */
export function metricsRoutes(metrics: Metrics, defaultHost: string, token: string | undefined) {
  const expected = token === undefined ? undefined : digest(`Bearer ${token}`);
  return async (app: FastifyInstance) => {
    app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
      if (!servesMetrics(request.headers.host, defaultHost)) return reply.callNotFound();
      if (expected !== undefined && !timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) {
        reply.header('www-authenticate', 'Bearer');
        throw BriefError.unauthorized('GET /metrics needs the METRICS_TOKEN as a bearer token');
      }
      reply.header('content-type', metrics.registry.contentType).header('cache-control', 'no-store');
      return metrics.registry.metrics();
    });
  };
}
