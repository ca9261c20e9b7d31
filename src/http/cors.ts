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
  return {
    origin: config.corsOrigins === '*' ? '*' : [...config.corsOrigins],
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: Object.keys(RATE_LIMIT_HEADERS),
    maxAge: 600,
    strictPreflight: true,
  };
}

export { cors };
