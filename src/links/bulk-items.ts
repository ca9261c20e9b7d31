import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { BriefError, type FieldError, itemCount, notInList, required, wrongType } from '../errors.js';
import { LINK_ERRORS } from './link-errors.js';
import { type CheckedLink, checkLinkInput, fieldErrorsOf } from './link-input.js';
import { BulkItem } from './v3-schemas.js';

// Ajv, as Fastify validates request schemas, but without its type coercion: an item's
// `reuseExisting: "yes"` is an error here, not a boolean. Compiled on the first bulk call, not at
// start (a fresh Ajv compiles its meta-schema too: a tenth of a second).
let itemCheck: ValidateFunction<BulkItem> | undefined;
const checkItemOnce = () => {
  itemCheck ??= new Ajv({ allErrors: true, strict: false }).compile<BulkItem>(BulkItem);
  return itemCheck;
};

/** A field named by its path in the item: `rules.2.conditions.0.type`. */
function fieldError(error: ErrorObject): FieldError {
  const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
  if (error.keyword === 'required') return required(`${path === '' ? '' : `${path}.`}${String(error.params.missingProperty)}`);
  if (error.keyword === 'enum') return notInList(path);
  if (error.keyword === 'minItems' || error.keyword === 'maxItems') return itemCount(path, error.keyword, Number(error.params.limit));
  return wrongType(path || 'item', String(error.params.type ?? 'valid'));
}

/**
 * One item of POST /v3/shorten/bulk, checked against the BulkItem schema item by item
 * (the body's schema only says "an array"); the error lists every field of the wrong type.
 */
export function bulkItemInput(item: unknown): BulkItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw LINK_ERRORS.notAnItem();
  }
  const checkItem = checkItemOnce();
  if (checkItem(item)) return item;
  const errors = (checkItem.errors ?? []).map(fieldError);
  throw new BriefError('E_VALIDATION_ERROR', errors[0]?.message ?? 'The item is invalid', errors);
}

/**
 * The items of a bulk body, each checked as a single create checks its input. Any item that
 * fails refuses the whole request before any work: one validation error naming every failed
 * field by its path (`0.url`), so a client's schema for the 200 answer never meets an item
 * that has no URL (decision 0017).
 */
export function checkBulkItems(items: readonly unknown[], allowCredentials: boolean, now = Date.now()): CheckedLink[] {
  const failed: Array<readonly [number, FieldError[]]> = [];
  const checked = items.map((item, index) => {
    try {
      return checkLinkInput(bulkItemInput(item), allowCredentials, now);
    } catch (error) {
      failed.push([index, fieldErrorsOf(error)]);
      return undefined;
    }
  });
  if (failed.some(([, errors]) => errors.length > 0)) throw LINK_ERRORS.badItems(failed);
  return checked as CheckedLink[];
}
