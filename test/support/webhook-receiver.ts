// A webhook receiver on this machine for the webhook suites: it records each request whole (path, headers, body) and
// answers as the suite says (204 unless told); it counts connections too, to tell where a client connected.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export interface ReceiverOptions {
  /** A loopback address (127.0.0.1 unless given). */
  readonly host?: string;
  /** 0 (any free one) unless given. */
  readonly port?: number;
  /** How to answer a request once its body has arrived; 204 unless given. */
  readonly answer?: (request: ReceivedRequest, response: http.ServerResponse, count: number) => void;
}

export async function startReceiver({ host = '127.0.0.1', port = 0, answer }: ReceiverOptions = {}) {
  const received: ReceivedRequest[] = [];
  let connections = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const record = { path: request.url ?? '', headers: request.headers as Record<string, string>, body };
      received.push(record);
      if (answer) answer(record, response, received.length);
      else response.writeHead(204).end();
    });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://${host}:${bound}/hook`,
    received,
    connections: () => connections,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
