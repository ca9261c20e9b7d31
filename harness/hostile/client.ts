// Sends hostile requests: through node:http's client on kept-alive connections when it
// allows the bytes, else written by hand on a socket of their own (`Connection: close`).
import http from 'node:http';
import net from 'node:net';
import type { HostileRequest } from './requests.js';

export interface Answer {
  /** The final status (after any 1xx); 0 when the connection closed without one. */
  status: number;
  contentType: string | undefined;
  body: string;
  /** The connection was reset or closed before an answer came. */
  dropped?: string;
}

const TIMEOUT_MS = 20_000;

export class HostileClient {
  private readonly agent: http.Agent;

  constructor(
    private readonly port: number,
    concurrency: number,
  ) {
    this.agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  }

  send(request: HostileRequest): Promise<Answer> {
    // HEAD too: node:http's client takes the body of a refusal of a malformed HEAD request for a protocol error.
    return request.raw || request.method === 'HEAD' ? this.sendRaw(request) : this.sendHttp(request);
  }

  close(): void {
    this.agent.destroy();
  }

  /** Through node:http's client, with the answer's headers. */
  sendWithHeaders(request: HostileRequest): Promise<Answer & { headers: http.IncomingHttpHeaders }> {
    return this.sendHttp(request);
  }

  private sendHttp(request: HostileRequest): Promise<Answer & { headers: http.IncomingHttpHeaders }> {
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of request.headers) {
      const key = name.toLowerCase();
      const had = headers[key];
      headers[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
    }
    // node:http's client frames a GET's or DELETE's body with nothing (no Content-Length): the
    // server would read the body as the next request on the connection.
    if (request.body && headers['transfer-encoding'] === undefined) headers['content-length'] = String(request.body.length);
    return new Promise((resolve) => {
      const req = http.request(
        { host: '127.0.0.1', port: this.port, method: request.method, path: request.target, headers, agent: this.agent },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: res.headers['content-type'],
              body: Buffer.concat(chunks).toString('utf8'),
              headers: res.headers,
            }),
          );
          res.on('error', (error) => resolve({ status: res.statusCode ?? 0, contentType: undefined, body: '', dropped: error.message, headers: {} }));
        },
      );
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('no answer in time')));
      req.on('error', (error) => resolve({ status: 0, contentType: undefined, body: '', dropped: error.message, headers: {} }));
      req.end(request.body);
    });
  }

  private sendRaw(request: HostileRequest): Promise<Answer> {
    const lines = [`${request.method} ${request.target} HTTP/1.1`, ...request.headers.map(([n, v]) => `${n}: ${v}`), 'Connection: close'];
    if (request.body) lines.push(`Content-Length: ${request.body.length}`);
    const bytes = Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8'), request.body ?? Buffer.alloc(0)]);
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      const socket = net.connect(this.port, '127.0.0.1', () => socket.end(bytes));
      socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error('no answer in time')));
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      let error: Error | undefined;
      socket.on('error', (e) => (error = e));
      socket.on('close', () => {
        const answer = parseResponse(Buffer.concat(chunks), request.method === 'HEAD');
        if (answer.status === 0) answer.dropped = error?.message ?? 'closed without an answer';
        resolve(answer);
      });
    });
  }
}

/**
 * The first final answer in what a server wrote on a connection (1xx skipped). A later
 * answer (when a short Content-Length left bytes that read as a second request) counts
 * too: the worst status is kept, with its body.
 */
export function parseResponse(data: Buffer, head: boolean): Answer {
  let rest = data;
  let worst: Answer = { status: 0, contentType: undefined, body: '' };
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const lines = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
    if (status === 0) break;
    const headers = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).trim().toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    let body = rest.subarray(end + 4);
    rest = Buffer.alloc(0);
    if (status < 200) {
      rest = body;
      continue;
    }
    const length = headers.get('content-length');
    if (head || status === 204 || status === 304) {
      rest = body;
      body = Buffer.alloc(0);
    } else if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
      const decoded = dechunk(body);
      body = decoded.body;
      rest = decoded.rest;
    } else if (length !== undefined) {
      rest = body.subarray(Number(length));
      body = body.subarray(0, Number(length));
    }
    if (status > worst.status) worst = { status, contentType: headers.get('content-type'), body: body.toString('utf8') };
  }
  return worst;
}

function dechunk(data: Buffer): { body: Buffer; rest: Buffer } {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol === -1) return { body: Buffer.concat(parts), rest: Buffer.alloc(0) };
    const size = Number.parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (!(size > 0)) {
      const trailerEnd = data.indexOf('\r\n\r\n', at);
      return { body: Buffer.concat(parts), rest: trailerEnd === -1 ? Buffer.alloc(0) : data.subarray(trailerEnd + 4) };
    }
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
