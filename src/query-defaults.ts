// Query schemas whose defaults the handler can count on. Fastify's Ajv runs with `useDefaults`,
// so a parameter with a `default` is always present once the request is validated; its type
// should say so, without a cast in the route nor a second interface beside the schema.
import type { TObject } from '@sinclair/typebox';

/**
 * The object schema with every property that has a `default` taken out of `required`: a client
 * may leave it out (for Ajv and in the API document it is optional), while `Static<typeof schema>`
 * keeps it required, as it is once validation has filled it in. Write such a property without
 * `Type.Optional`.
 */
export function withDefaults<T extends TObject>(schema: T): T {
  const required = (schema.required ?? []).filter((key) => !('default' in (schema.properties[key] ?? {})));
  const copy: T = { ...schema, required };
  if (required.length === 0) delete copy.required;
  return copy;
}
