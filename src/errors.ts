// The one error type of the features. It names what went wrong in the interface's own
// vocabulary (its error code) and knows nothing of HTTP: http/error-status.ts alone maps
// each code to a status, and http/error-handler.ts turns errors into responses.

export type ErrorCode =
  | 'E_VALIDATION_ERROR'
  | 'E_UNAUTHORIZED_ACCESS'
  | 'E_FORBIDDEN'
  | 'E_NOT_FOUND'
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
    return new BriefError('E_VALIDATION_ERROR', message, [{ field, rule, message }]);
  }

  /** No such thing, or one the caller may not see: the two are indistinguishable. */
  static notFound(message = 'Link not found'): BriefError {
    return new BriefError('E_NOT_FOUND', message);
  }

  static unauthorized(message = 'Unauthorized access'): BriefError {
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
