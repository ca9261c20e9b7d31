// The one error type. Every error code and its HTTP status lives in ERROR_STATUS;
// the error handler (http/error-handler.ts) is the only place that turns errors into HTTP.

export const ERROR_STATUS = {
  E_VALIDATION_ERROR: 422,
  E_BAD_REQUEST: 400,
  E_UNAUTHORIZED_ACCESS: 401,
  E_NOT_FOUND: 404,
  E_ROUTE_NOT_FOUND: 404,
  E_INTERNAL_ERROR: 500,
  E_SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  field: string;
  rule: string;
  message: string;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  /** 422 for one field, e.g. invalid('url', 'url', 'The url field must be a valid URL'). */
  static invalid(field: string, rule: string, message: string): AppError {
    return new AppError('E_VALIDATION_ERROR', message, [{ field, rule, message }]);
  }

  static notFound(message = 'Link not found'): AppError {
    return new AppError('E_NOT_FOUND', message);
  }

  static unauthorized(message = 'Unauthorized access'): AppError {
    return new AppError('E_UNAUTHORIZED_ACCESS', message);
  }

  static unavailable(): AppError {
    return new AppError('E_SERVICE_UNAVAILABLE', 'The service is temporarily unavailable, try again shortly');
  }
}
