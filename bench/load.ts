import { createRequire } from 'node:module';
import autocannon from 'autocannon';

// autocannon rebuilds a request with a dynamic path (setupRequest) through its generic
// builder and an id generator: measured here, that capped the load generator at about
// 16k requests/s against 27k+ for a fixed path, so random-key scenarios measured the
// generator, not the server. Requests that carry `nextPath` get their buffer written
// directly instead (GET only, no body), which costs about as much as a fixed path.
type FastPathRequest = autocannon.Request & { nextPath?: () => string; hostHeader?: string; requestBuffer?: Buffer };
/** The internals of autocannon's (untyped) lib/requestIterator.js that the patch below uses. */
interface RequestIterator {
  requests: FastPathRequest[];
  resetted: boolean;
  currentRequest: FastPathRequest;
  nextRequest(): FastPathRequest;
}
const RequestIterator: { prototype: RequestIterator } = createRequire(import.meta.url)('autocannon/lib/requestIterator.js');
const nextRequest = RequestIterator.prototype.nextRequest;
RequestIterator.prototype.nextRequest = function (this: RequestIterator) {
  const request = this.requests.length === 1 ? this.requests[0] : undefined;
  if (!request?.nextPath) return nextRequest.call(this);
  this.resetted = false;
  request.requestBuffer = Buffer.from(`GET ${request.nextPath()} HTTP/1.1\r\nHost: ${request.hostHeader}\r\n\r\n`, 'latin1');
  this.currentRequest = request;
  return request;
};

export interface LoadSpec {
  port: number;
  host?: string;
  /** A fixed path, or a function giving each request's path. */
  path: string | (() => string);
  /** POST with a JSON body from this maker (with a fixed path). */
  body?: () => string;
  expectStatus: number;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

/** One autocannon run; errors are socket errors, timeouts and any status but the expected one. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const nextPath = spec.path;
  const nextBody = spec.body;
  const request: FastPathRequest = nextBody
    ? {
        method: 'POST',
        path: typeof nextPath === 'string' ? nextPath : nextPath(),
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: nextBody() }),
      }
    : typeof nextPath === 'string'
      ? { method: 'GET', path: nextPath }
      : { method: 'GET', path: nextPath(), nextPath, hostHeader: spec.host ?? `127.0.0.1:${spec.port}` };
  const result = await autocannon({
    url: `http://127.0.0.1:${spec.port}`,
    connections: spec.connections,
    duration: spec.seconds,
    headers: spec.host ? { host: spec.host } : {},
    requests: [request],
  });
  let unexpected = 0;
  let answered = 0;
  for (const [status, stat] of Object.entries(result.statusCodeStats ?? {})) {
    const count = Number(stat.count);
    answered += count;
    if (Number(status) !== spec.expectStatus) unexpected += count;
  }
  return {
    requests: answered,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + unexpected,
  };
}
