import http from 'node:http';
import type { Socket } from 'node:net';

/**
 * Requests node:http refuses before Fastify sees them (headers over 16 KB, a malformed
 * request line, a client too slow to send its headers) get the JSON error shape of every
 * other error, `{ message, code: "E_BAD_REQUEST" }`, instead of Fastify's default body.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large (at most 16 KB, URL included)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ message, code: 'E_BAD_REQUEST' });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
