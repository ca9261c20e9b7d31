import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BriefError, wrongType } from '../errors.js';

/**
 * Ajv's type coercion turns a query or path value like `1e400` (or 400 nines) into Infinity,
 * which passes an `integer` schema and skips its minimum and maximum (they only test finite
 * numbers). Found by the property tests: `limit=1e400` answered 500, `width=1e400` drew an
 * SVG "Infinity" pixels wide, `DELETE /v3/tokens/1e400` answered 500 on PostgreSQL. After
 * validation, any number in the query or the path that is not finite is refused as a type
 * error, with the message a non-number gets.
 */
export function refuseNonFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    refuseIn(request.query);
    refuseIn(request.params);
  });
}

function refuseIn(values: unknown): void {
  if (typeof values !== 'object' || values === null) return;
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'number' && !Number.isFinite(value)) {
      throw BriefError.field(wrongType(field, 'integer'));
    }
  }
}
