import type { BriefError, ErrorCode } from '../errors.js';

/** Codes only the HTTP edge produces: what the router or the parser refused, and bugs. */
export type HttpErrorCode = 'E_BAD_REQUEST' | 'E_ROUTE_NOT_FOUND' | 'E_INTERNAL_ERROR';

/** Every code an error body can carry. */
export type ApiErrorCode = ErrorCode | HttpErrorCode;

/** The one table of error code → HTTP status. */
export const ERROR_STATUS: Readonly<Record<ApiErrorCode, number>> = {
  E_VALIDATION_ERROR: 422,
  E_BAD_REQUEST: 400,
  E_UNAUTHORIZED_ACCESS: 401,
  E_FORBIDDEN: 403,
  E_NOT_FOUND: 404,
  E_ROUTE_NOT_FOUND: 404,
  E_CONFLICT: 409,
  E_TOO_MANY_REQUESTS: 429,
  E_INTERNAL_ERROR: 500,
  E_SERVICE_UNAVAILABLE: 503,
};

/** The status a domain error is answered with. */
export function statusOf(error: BriefError): number {
  return ERROR_STATUS[error.code];
}
