// The one error type of the features. It names what went wrong in the interface's own
// vocabulary (its error code) and knows nothing of HTTP: http/error-status.ts alone maps
// each code to a status, and http/error-handler.ts turns errors into responses. Each feature
// declares its errors once, in its errors file (links/link-errors.ts, …), with declareError
// below: its services throw them, and its routes show them in the API document (decision 0037).

export type ErrorCode =
  | 'E_VALIDATION_ERROR'
  | 'E_UNAUTHORIZED_ACCESS'
  | 'E_FORBIDDEN'
  | 'E_NOT_FOUND'
  | 'E_CONFLICT'
  | 'E_TOO_MANY_REQUESTS'
  | 'E_SERVICE_UNAVAILABLE';

/** One field's problem in a validation error. */
export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

export class BriefError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
    /** When the caller may try again, in seconds (a limit's window, a busy moment); the edge says it as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** Bad input in one field, e.g. invalid('url', 'url', 'The url field must be a valid URL'). */
  static invalid(field: string, rule: string, message: string): BriefError {
    return BriefError.field({ field, rule, message });
  }

  /** One field's error as a validation error (the functions below word the common rules). */
  static field(error: FieldError): BriefError {
    return new BriefError('E_VALIDATION_ERROR', error.message, [error]);
  }

  /** No such thing, or one the caller may not see: the two are indistinguishable. */
  static notFound(message: string): BriefError {
    return new BriefError('E_NOT_FOUND', message);
  }

  /** The change would take what another thing holds (a tag renamed onto another tag's name). */
  static conflict(message: string): BriefError {
    return new BriefError('E_CONFLICT', message);
  }

  static unauthorized(message: string): BriefError {
    return new BriefError('E_UNAUTHORIZED_ACCESS', message);
  }

  /** The caller may see the thing but not do this (a token beyond its scopes, a role, a cross-site request). */
  static forbidden(message: string): BriefError {
    return new BriefError('E_FORBIDDEN', message);
  }

  /** Over a rate limit; the caller may try again after `retryAfterSeconds`. */
  static tooManyRequests(retryAfterSeconds: number): BriefError {
    const after = retryAfterSeconds === 1 ? '1 second' : `${retryAfterSeconds} seconds`;
    return new BriefError('E_TOO_MANY_REQUESTS', `Too many requests: the rate limit is reached, try again in ${after}`, undefined, retryAfterSeconds);
  }

  /** A dependency (the database) cannot be reached right now; retrying later may work. */
  static unavailable(): BriefError {
    return new BriefError('E_SERVICE_UNAVAILABLE', 'The service is temporarily unavailable, try again shortly');
  }

  /** Too many passwords are being hashed on the server right now (passwords/password-pool.ts): nothing was checked. */
  static busy(retryAfterSeconds: number): BriefError {
    return new BriefError(
      'E_SERVICE_UNAVAILABLE',
      'Too many passwords are being checked right now: try again in a moment',
      undefined,
      retryAfterSeconds,
    );
  }
}

/** What the API document shows of an error: the error, made for the example, and the example's name. */
export interface ErrorExample {
  /** The example's name in the API document: what the example shows, in a few words. */
  readonly summary: string;
  /** The error as the example shows it (http/error-schemas.ts turns it into the answer's body). */
  example(): BriefError;
}

/**
 * An error declared once, in its feature's errors file: called, it makes the error its service
 * throws (`throw LINK_ERRORS.slugTaken()`); as an ErrorExample, it is what the feature's routes show.
 */
export interface DeclaredError<A extends unknown[] = []> extends ErrorExample {
  (...args: A): BriefError;
  /** The same error shown with other arguments (another field, another figure), and another summary when given. */
  exampleWith(args: A, summary?: string): ErrorExample;
}

/**
 * Declares an error: `make` words it from what varies (the caller's values: a field, a count), and the
 * API document's example is what `make` answers for `example`, so the document never words it again.
 */
export function declareError<A extends unknown[]>(summary: string, make: (...args: A) => BriefError, ...example: NoInfer<A>): DeclaredError<A> {
  const exampleWith = (args: A, other = summary): ErrorExample => ({ summary: other, example: () => make(...args) });
  return Object.assign((...args: A) => make(...args), { summary, example: () => make(...example), exampleWith });
}

// A field's error for each rule that many fields share, worded once in the v2 interface's style:
// the edge's translation of a failed schema check (http/error-handler.ts) and the features' own
// checks of the same rules (a URL missing, a slug's format, a title too long) answer alike, and
// the API document's examples of them are made here too.

const ruleError = (field: string, rule: string, message: string): FieldError => ({ field, rule, message });

/** The field is missing. */
export const required = (field: string): FieldError => ruleError(field, 'required', `The ${field} field must be defined`);

/** The value is not one of the field's list. */
export const notInList = (field: string): FieldError => ruleError(field, 'enum', `The selected ${field} is invalid`);

/** A number outside `minimum`…`maximum`. */
export const outOfRange = (field: string, minimum: number, maximum: number): FieldError =>
  ruleError(field, 'range', `The ${field} field must be between ${minimum} and ${maximum}`);

/** A number under the field's minimum (it has no maximum). */
export const belowMinimum = (field: string, minimum: number): FieldError =>
  ruleError(field, 'range', `The ${field} field must be at least ${minimum}`);

/** A JSON type as the messages name it: "a whole number", "an object", "null". */
function aType(type: string): string {
  if (type === 'integer') return 'a whole number';
  if (type === 'null') return 'null';
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** A value of another type; `types` as a schema names them, two for a nullable field ("integer,null": "a whole number or null"). */
export const wrongType = (field: string, types: string): FieldError =>
  ruleError(field, types, `The ${field} field must be ${types.split(',').map(aType).join(' or ')}`);

/** An array with too few or too many items. */
export const itemCount = (field: string, rule: 'minItems' | 'maxItems', limit: number): FieldError =>
  ruleError(field, rule, `The ${field} field must have ${rule === 'minItems' ? 'at least' : 'at most'} ${limit} items`);

/** Text longer than `limit` characters (the v2 calls' words). */
export const tooLong = (field: string, limit: number): FieldError =>
  ruleError(field, 'maxLength', `The ${field} field must not be greater than ${limit} characters`);

/** Text shorter than `limit` characters. */
export const tooShort = (field: string, limit: number): FieldError =>
  ruleError(field, 'minLength', `The ${field} field must be at least ${limit} characters`);

/** Text longer than `limit` characters (the words of the calls made since: /auth, tokens, passkeys). */
export const overLimit = (field: string, limit: number): FieldError =>
  ruleError(field, 'maxLength', `The ${field} field must be at most ${limit} characters`);

/** Text that does not match the field's pattern. */
export const badFormat = (field: string): FieldError => ruleError(field, 'regex', `The ${field} field format is invalid`);

/** An example of a field's error for the API document: a schema's own check, or a feature's check of a rule above. */
export const fieldExample = (summary: string, error: FieldError): ErrorExample => ({ summary, example: () => BriefError.field(error) });

/** An example of a number outside its schema's bounds, the figures read from the schema itself, as its check words it. */
export const rangeExample = (summary: string, field: string, schema: { readonly minimum?: number; readonly maximum?: number }): ErrorExample =>
  fieldExample(
    summary,
    schema.maximum === undefined ? belowMinimum(field, schema.minimum ?? 0) : outOfRange(field, schema.minimum ?? 0, schema.maximum),
  );
