import { Ajv } from 'ajv';
import { BriefError } from '../errors.js';
import { BulkItem } from './v3-schemas.js';

// Ajv, as Fastify validates request schemas, but without its type coercion: an item's
// `reuseExisting: "yes"` is an error here, not a boolean.
const checkItem = new Ajv({ allErrors: false, strict: false }).compile<BulkItem>(BulkItem);

/**
 * One item of POST /v3/shorten/bulk, checked against the BulkItem schema item by item
 * (the body's schema only says "an array"), so a bad item fails alone with the same kind
 * of message a bad query parameter gets.
 */
export function bulkItemInput(item: unknown): BulkItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw BriefError.invalid('item', 'object', 'Each item must be an object with a url');
  }
  if (checkItem(item)) return item;
  const first = checkItem.errors?.[0];
  if (first?.keyword === 'required') {
    const field = String(first.params.missingProperty);
    throw BriefError.invalid(field, 'required', `The ${field} field must be defined`);
  }
  const field = first?.instancePath.replace(/^\//, '') || 'item';
  const type = String(first?.params.type ?? 'valid');
  throw BriefError.invalid(field, type, `The ${field} field must be a ${type}`);
}

/** The url an item was sent with, to label its result: empty when it had none. */
export function itemUrl(item: unknown): string {
  const url = (item as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? url : '';
}
