import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BriefError, badFormat, belowMinimum, type FieldError, itemCount, notInList, outOfRange, required, tooLong, wrongType } from '../errors.js';
import { HTML_PAGE_HEADERS, NOT_FOUND_PAGE } from '../html/pages.js';
import { isConnectionError } from '../storage/connection-errors.js';
import { httpError, internalError, routeNotFound } from './edge-errors.js';
import { ERROR_STATUS, statusOf } from './error-status.js';

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
  app.setErrorHandler((error: FastifyError | BriefError, request, reply) => {
    if (error instanceof BriefError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', error.retryAfterSeconds);
      return reply.code(statusOf(error)).send(errorBody(error));
    }
    if ((error as FastifyError).validation) {
      const invalid = fromSchemaErrors((error as FastifyError).validation as unknown as AjvError[]);
      return reply.code(statusOf(invalid)).send(errorBody(invalid));
    }
    if (isClientAbort(error, request)) {
      // The connection closed mid-body (the client's reset, not the database's, or BODY_TIMEOUT_MS
      // cut it with a 408 already written): nobody to answer.
      const reason = (request.raw.socket?.errored as NodeJS.ErrnoException | null | undefined)?.code ?? (error as NodeJS.ErrnoException).code;
      request.log.info({ reason }, 'the connection closed before the request arrived whole');
      return reply.code(400).send(httpError('E_BAD_REQUEST', 'The request body did not arrive whole'));
    }
    if (isConnectionError(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      const unavailable = BriefError.unavailable();
      return reply.code(statusOf(unavailable)).send(errorBody(unavailable));
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors (bad content type, body too large, …).
      return reply.code(error.statusCode).send(httpError('E_BAD_REQUEST', error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(ERROR_STATUS.E_INTERNAL_ERROR).send(internalError());
  });

  app.setNotFoundHandler((request, reply) => {
    if (API_PREFIX.test(request.url) || API_PREFIX.test(routedPath(request.url))) {
      return reply.code(ERROR_STATUS.E_ROUTE_NOT_FOUND).send(routeNotFound(request.method, request.url.split('?')[0]!));
    }
    return reply.code(404).headers(HTML_PAGE_HEADERS).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
  });
}

/**
 * An error of the request's own stream: node:http destroys it with `ECONNRESET` ("aborted") when
 * the client's socket closes before the body is whole, and Fastify's body reader hands that error
 * on as it is. The same code from pg or ioredis is the database's, and does not come from here.
 */
function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  return error !== null && error !== undefined && request.raw.errored === error;
}

/** Under the API's prefixes every answer is JSON, an unknown path's too (clients parse every response). */
const API_PREFIX = /^\/v[23](?:[/?]|$)/;

/**
 * The path as the router reads it: an absolute-form target (`http://host/v2/…`) without its
 * origin, and percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2: `/%76%32/` is
 * `/v2/`). An unknown path there is still the API's.
 */
function routedPath(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  if (!path.includes('%')) return path;
  return path.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : encoded;
  });
}

/** The documented error body: `{ message, code }`, plus `errors` for validation. */
function errorBody(error: BriefError): { message: string; code: string; errors?: FieldError[] } {
  const body: { message: string; code: string; errors?: FieldError[] } = { message: error.message, code: error.code };
  if (error.errors) body.errors = error.errors;
  return body;
}

/**
 * Fastify's `frameworkErrors`: errors it raises before routing (a malformed percent-encoding
 * in the path) skip the error handler; without this their body is Fastify's own
 * `{ error, code: FST_ERR_…, statusCode }`.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void reply.code(ERROR_STATUS.E_BAD_REQUEST).send(httpError('E_BAD_REQUEST', error.message));
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
  refuseOnSocket(socket, status, message);
  socket.destroy(error);
}

/**
 * node:http's `connect` event: a CONNECT request (a client taking Brief for a proxy), which
 * node:http would otherwise answer by closing the connection without a word.
 */
export function connectRefusal(_request: IncomingMessage, socket: Duplex): void {
  refuseOnSocket(socket, 400, 'CONNECT is not supported: Brief is not a proxy');
  socket.destroy();
}

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). node:http's own refusal of a request without
 * one (`requireHostHeader`) is a bare 400; the server turns that off and calls this instead.
 * Returns true when it answered.
 */
export function refuseMissingHost(request: IncomingMessage, response: ServerResponse): boolean {
  if (request.headers.host !== undefined || request.httpVersion !== '1.1') return false;
  const body = JSON.stringify(httpError('E_BAD_REQUEST', 'The Host header is required'));
  response.writeHead(400, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  response.end(body);
  return true;
}

/** Writes an error answer in the documented shape straight on a socket that Fastify never saw. */
function refuseOnSocket(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify(httpError('E_BAD_REQUEST', message));
  // Not in the middle of an answer already begun (its bytes would corrupt it): then only the close says it.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (socket.writable && !answering) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
}

/** Turns the first JSON-schema error into our validation error, with messages in the v2 style. */
function fromSchemaErrors(errors: AjvError[]): BriefError {
  const fieldErrors = errors.map(toFieldError);
  return new BriefError('E_VALIDATION_ERROR', fieldErrors[0]?.message ?? 'Invalid request', fieldErrors);
}

/** A JSON pointer to a field as the answers name it: `/rules/2/url` is `rules.2.url`. */
const fieldPath = (pointer: string): string => pointer.replace(/^\//, '').replaceAll('/', '.');

function toFieldError(error: AjvError): FieldError {
  const parent = fieldPath(error.instancePath);
  const field = error.keyword === 'required' ? `${parent === '' ? '' : `${parent}.`}${String(error.params.missingProperty)}` : parent || 'request';
  const { minimum, maximum } = error.parentSchema ?? {};
  switch (error.keyword) {
    case 'required':
      return required(field);
    case 'enum':
      return notInList(field);
    case 'minimum':
    case 'maximum':
      return minimum !== undefined && maximum !== undefined ? outOfRange(field, minimum, maximum) : belowMinimum(field, minimum as number);
    case 'type':
      // A nullable field's schema names two types ("integer,null"): "must be a whole number or null".
      return wrongType(field, String(error.params.type));
    case 'minItems':
    case 'maxItems':
      return itemCount(field, error.keyword, error.params.limit as number);
    case 'maxLength':
      return tooLong(field, error.params.limit as number);
    case 'pattern':
      return badFormat(field);
    default:
      return { field, rule: error.keyword, message: `The ${field} field is invalid` };
  }
}
