import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { Config } from '../config.js';
import { RATE_LIMIT_HEADERS } from './error-schemas.js';

/**
 * CORS for the API (@fastify/cors), registered in the context of the /v2 and /v3 routes only:
 * any origin by default, or the CORS_ORIGINS list; never credentials (callers authenticate
 * with a bearer token, not cookies); preflights answered with the methods the API uses and
 * the headers the browser asks for. Browser clients may read the rate-limit headers.
 */
export function corsOptions(config: Pick<Config, 'corsOrigins'>): FastifyCorsOptions {
  const allowed = config.corsOrigins === '*' ? undefined : new Set(config.corsOrigins);
  return {
    // A request without Origin (not a browser's cross-origin call), or from an origin not allowed,
    // gets no CORS at all: an OPTIONS then answers as any unknown route (404, JSON under the API).
    origin: (origin, callback) => {
      if (origin === undefined) callback(null, false);
      else if (allowed === undefined) callback(null, '*');
      else callback(null, allowed.has(origin) ? origin : false);
    },
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: Object.keys(RATE_LIMIT_HEADERS),
    maxAge: 600,
    strictPreflight: false,
  };
}

export { cors };
