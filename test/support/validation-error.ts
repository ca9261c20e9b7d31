// The one check every property shares: an input that is refused is refused with Brief's
// validation error, nothing else. Importing it also makes fast-check's failure reports carry
// the assertion that failed (node:test does not print an error's cause).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BriefError } from '../../src/errors.js';

fc.configureGlobal({ includeErrorInReport: true });

/** Asserts that `error` is Brief's validation error, about `field` when given. */
export function expectValidationError(error: unknown, field?: string): void {
  assert.ok(error instanceof BriefError, `expected a BriefError, got ${String(error)}`);
  assert.equal(error.code, 'E_VALIDATION_ERROR');
  assert.ok(typeof error.message === 'string' && error.message.length > 0);
  if (field !== undefined) assert.equal(error.errors?.[0]?.field, field);
}
