// What every answer to hostile input must look like, checked the same way by the in-process
// property tests and by the fuzz against a running server.

/** The API's paths (as the server's not-found handling reads them): every error there is JSON. */
export const API_PATH = /^\/v[23](?:[/?]|$)/;

/**
 * The path as a router reads it: an absolute-form target without its origin, and
 * percent-encoded unreserved characters decoded (RFC 3986 §6.2.2.2: `%76%32` is `v2`).
 */
export function routedPath(path: string): string {
  return path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '').replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /[A-Za-z0-9._~-]/.test(char) ? char : encoded;
  });
}

/** The documented error body (spec: `{message, code}`; validation adds `errors: [{field, message}]`). */
export interface ErrorBody {
  message: string;
  code: string;
  errors?: Array<{ field: string; message: string }>;
}

/**
 * What is wrong with an answer, or null when nothing is: never a 5xx, and an error under
 * /v2 and /v3 is `{message, code}` JSON. `path` is the request's path as sent; an answer
 * to HEAD has no body to check.
 */
export function answerProblem(method: string, path: string, status: number, contentType: string | undefined, body: string): string | null {
  if (status >= 500) return `${status}: ${body.slice(0, 200)}`;
  if (status < 100) return `no status (${status})`;
  if (status < 400 || !API_PATH.test(routedPath(path))) return null;
  if (!/^application\/json\b/i.test(contentType ?? '')) return `${status} with content type ${contentType ?? 'none'}`;
  return method === 'HEAD' ? null : errorBodyProblem(body);
}

/** What is wrong with an error body, or null. */
export function errorBodyProblem(text: string): string | null {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return `not an object: ${text.slice(0, 200)}`;
  const { message, code, errors } = body as Record<string, unknown>;
  if (typeof message !== 'string' || message === '') return `no message: ${text.slice(0, 200)}`;
  if (typeof code !== 'string' || !/^E_[A-Z_]+$/.test(code)) return `no E_ code: ${text.slice(0, 200)}`;
  if (errors !== undefined) {
    const fine =
      Array.isArray(errors) &&
      errors.every((e) => typeof e === 'object' && e !== null && typeof e.field === 'string' && typeof e.message === 'string');
    if (!fine) return `errors not [{field, message}]: ${text.slice(0, 200)}`;
  }
  return null;
}
