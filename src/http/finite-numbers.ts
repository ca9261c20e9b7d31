import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BriefError } from '../errors.js';

/**
 * Ajv's type coercion turns a query value like `1e400` (or 400 nines) into Infinity, which
 * passes an `integer` schema and skips its minimum and maximum (they only test finite
 * numbers). Found by the property tests: `limit=1e400` answered 500, `width=1e400` drew an
 * SVG "Infinity" pixels wide. After validation, any number in the query that is not finite
 * is refused as a type error, with the message a non-number gets.
 */
export function refuseNonFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (typeof query !== 'object' || query === null) return;
    for (const [field, value] of Object.entries(query)) {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        throw BriefError.invalid(field, 'integer', `The ${field} field must be a whole number`);
      }
    }
  });
}
