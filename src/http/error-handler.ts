import type { FastifyError, FastifyInstance } from 'fastify';
import { NOT_FOUND_PAGE } from '../redirect/pages.js';
import { isConnectionError } from '../storage/database.js';
import { AppError, type FieldError } from './app-error.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: { minimum?: number; maximum?: number };
}

/** The only place errors become HTTP: `{ message, code }`, plus `errors` for validation. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    let appError: AppError;
    if (error instanceof AppError) {
      appError = error;
    } else if ((error as FastifyError).validation) {
      appError = fromSchemaErrors((error as FastifyError).validation as unknown as AjvError[]);
    } else if (isConnectionError(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      appError = AppError.unavailable();
    } else if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (bad content type, body too large, …).
      return reply.code(error.statusCode).send({ message: error.message, code: 'E_BAD_REQUEST' });
    } else {
      request.log.error({ err: error }, 'unhandled error');
      appError = new AppError('E_INTERNAL_ERROR', 'Internal server error');
    }
    const body: { message: string; code: string; errors?: FieldError[] } = { message: appError.message, code: appError.code };
    if (appError.errors) body.errors = appError.errors;
    return reply.code(appError.status).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url === '/v2' || request.url.startsWith('/v2/') || request.url.startsWith('/v2?')) {
      return reply.code(404).send({ message: `Cannot ${request.method} ${request.url.split('?')[0]}`, code: 'E_ROUTE_NOT_FOUND' });
    }
    return reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
  });
}

/** Turns the first JSON-schema error into our validation error, with messages in the v2 style. */
function fromSchemaErrors(errors: AjvError[]): AppError {
  const fieldErrors = errors.map(toFieldError);
  return new AppError('E_VALIDATION_ERROR', fieldErrors[0]?.message ?? 'Invalid request', fieldErrors);
}

function toFieldError(error: AjvError): FieldError {
  const field = error.keyword === 'required' ? String(error.params.missingProperty) : error.instancePath.replace(/^\//, '') || 'request';
  const { minimum, maximum } = error.parentSchema ?? {};
  switch (error.keyword) {
    case 'required':
      return { field, rule: 'required', message: `The ${field} field must be defined` };
    case 'enum':
      return { field, rule: 'enum', message: `The selected ${field} is invalid` };
    case 'minimum':
    case 'maximum':
      return {
        field,
        rule: 'range',
        message:
          minimum !== undefined && maximum !== undefined
            ? `The ${field} field must be between ${minimum} and ${maximum}`
            : `The ${field} field must be at least ${minimum}`,
      };
    case 'type':
      return {
        field,
        rule: String(error.params.type),
        message: error.params.type === 'integer' ? `The ${field} field must be a whole number` : `The ${field} field must be a ${error.params.type}`,
      };
    case 'maxLength':
      return { field, rule: 'maxLength', message: `The ${field} field must not be greater than ${error.params.limit} characters` };
    case 'pattern':
      return { field, rule: 'regex', message: `The ${field} field format is invalid` };
    default:
      return { field, rule: error.keyword, message: `The ${field} field is invalid` };
  }
}
