import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { BriefError, type FieldError } from '../errors.js';
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

function fieldError(error: ErrorObject): FieldError {
  if (error.keyword === 'required') {
    const field = String(error.params.missingProperty);
    return { field, rule: 'required', message: `The ${field} field must be defined` };
  }
  const field = error.instancePath.replace(/^\//, '') || 'item';
  const type = String(error.params.type ?? 'valid');
  return { field, rule: type, message: `The ${field} field must be a ${type}` };
}

/**
 * One item of POST /v3/shorten/bulk, checked against the BulkItem schema item by item
 * (the body's schema only says "an array"); the error lists every field of the wrong type.
 */
export function bulkItemInput(item: unknown): BulkItem {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw BriefError.invalid('item', 'object', 'Each item must be an object with a url');
  }
  const checkItem = checkItemOnce();
  if (checkItem(item)) return item;
  const errors = (checkItem.errors ?? []).map(fieldError);
  throw new BriefError('E_VALIDATION_ERROR', errors[0]?.message ?? 'The item is invalid', errors);
}

/**
 * A field error of item `index`, named as the body's path to it: `2.url`, "The 2.url field
 * must be a valid URL" (the item itself, when it is not an object: `2`).
 */
function inItem(index: number, error: FieldError): FieldError {
  if (error.field === 'item') return { field: String(index), rule: error.rule, message: `Item ${index} must be an object with a url` };
  const field = `${index}.${error.field}`;
  const named = error.message.replace(/^The (selected )?(\S+)/, (whole, selected: string | undefined, name: string) =>
    name === error.field ? `The ${selected ?? ''}${field}` : whole,
  );
  return { field, rule: error.rule, message: named === error.message ? `Item ${index}: ${error.message}` : named };
}

/**
 * The items of a bulk body, each checked as a single create checks its input. Any item that
 * fails refuses the whole request before any work: one validation error naming every failed
 * field by its path (`0.url`), so a client's schema for the 200 answer never meets an item
 * that has no URL (decision 0017).
 */
export function checkBulkItems(items: readonly unknown[], allowCredentials: boolean, now = Date.now()): CheckedLink[] {
  const errors: FieldError[] = [];
  const checked = items.map((item, index) => {
    try {
      return checkLinkInput(bulkItemInput(item), allowCredentials, now);
    } catch (error) {
      errors.push(...fieldErrorsOf(error).map((fieldError) => inItem(index, fieldError)));
      return undefined;
    }
  });
  const [first] = errors;
  if (first) throw new BriefError('E_VALIDATION_ERROR', first.message, errors);
  return checked as CheckedLink[];
}
