import { Value } from 'typebox/value';
import { BriefError } from '../errors.js';
import { BulkItem } from './v3-schemas.js';

/**
 * One item of POST /v3/shorten/bulk, checked against the BulkItem schema
 * item by item (the body's schema only says "an array"), so a bad item fails alone with
 * the same kind of message a bad query parameter gets.
 */
export function bulkItemInput(item: unknown): BulkItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw BriefError.invalid('item', 'object', 'Each item must be an object with a url');
  }
  const [first] = Value.Errors(BulkItem, item);
  if (first) {
    const field = first.keyword === 'required' ? 'url' : first.instancePath.replace(/^\//, '');
    if (first.keyword === 'required') throw BriefError.invalid(field, 'required', `The ${field} field must be defined`);
    const type = String((first.params as { type?: unknown }).type ?? 'valid');
    throw BriefError.invalid(field, type, `The ${field} field must be a ${type}`);
  }
  return item as BulkItem;
}

/** The url an item was sent with, to label its result: empty when it had none. */
export function itemUrl(item: unknown): string {
  const url = (item as { url?: unknown } | null)?.url;
  return typeof url === 'string' ? url : '';
}
