import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NOT_FOUND_PAGE } from '../redirect/pages.js';
import { isConnectionError } from '../storage/database.js';
import { AppError, type FieldError } from './app-error.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: { minimum?: number; maximum?: number };
}

/**
 * The only place errors become HTTP: `{ message, code }`, plus `errors` for validation
 * (with frameworkErrorHandler and clientErrorHandler below, for what fails before routing).
 */
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
      return reply.code(error.statusCode).send(badRequest(error.message));
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

/** The body of a request refused before our own code saw it. */
function badRequest(message: string): { message: string; code: 'E_BAD_REQUEST' } {
  return { message, code: 'E_BAD_REQUEST' };
}

/**
 * Fastify's `frameworkErrors`: errors it raises before routing (a malformed percent-encoding
 * in the path) skip the error handler; without this their body is Fastify's own
 * `{ error, code: FST_ERR_…, statusCode }`.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(400).send(badRequest(error.message));
}

/**
 * Fastify's `clientErrorHandler`: requests node:http refuses before Fastify sees them
 * (headers over 16 KB, a malformed request line, a client too slow to send its headers)
 * are answered on the socket, with the same body shape.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large (at most 16 KB, URL included)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify(badRequest(message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
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
