// A slow request cannot hold a connection past BODY_TIMEOUT_MS, and no more than MAX_CONNECTIONS
// are open at once (issue 31, item 7; decision 0020).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { clientErrorHandler } from '../../src/http/error-handler.js';
import { TEST_ENV } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';
import { logCollector } from '../support/log.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  /** What the server sent before it closed the connection ('' when nothing). */
  data: string;
  closedAfterMs: number;
}

/** Connects, runs `send` on the socket, and resolves with all it received once the server closes it. */
function exchange(port: number, send: (socket: net.Socket) => Promise<void> | void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let data = '';
    const socket = net.connect(port, '127.0.0.1', () => void send(socket));
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    socket.on('close', () => resolve({ data, closedAfterMs: Date.now() - started }));
  });
}

function parse(answer: Answer): { status: number; body: unknown } {
  const [head = '', body = ''] = answer.data.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: body ? JSON.parse(body) : undefined };
}

/** Sends `text` a byte at a time every `everyMs` while the socket is open. */
async function trickle(socket: net.Socket, text: string, everyMs: number): Promise<void> {
  for (const char of text) {
    if (socket.destroyed) return;
    socket.write(char);
    await sleep(everyMs);
  }
}

const BULK_HEAD = 'POST /v3/shorten/bulk HTTP/1.1\r\nHost: short.test\r\nContent-Type: application/json\r\n';
const TIMED_OUT = { message: 'The request took too long to arrive', code: 'E_BAD_REQUEST' };

describe('connection limits', () => {
  let db: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  const log = logCollector();

  before(async () => {
    db = await openTestDatabase('sqlite');
    const config = loadConfig({ ...TEST_ENV, LOG_LEVEL: 'warn', BODY_TIMEOUT_MS: '1000', MAX_CONNECTIONS: '3' });
    app = buildApp(config, { database: db.database, logDestination: log.destination });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as net.AddressInfo).port;
  });
  after(async () => {
    await app?.close();
    await db?.cleanup();
  });

  it('answers a body still arriving after BODY_TIMEOUT_MS with 408 in { message, code } and closes the connection', async () => {
    const body = JSON.stringify([{ url: 'https://example.com/slow' }]);
    const answer = await exchange(port, async (socket) => {
      socket.write(`${BULK_HEAD}Content-Length: ${body.length}\r\n\r\n`);
      await trickle(socket, body, 100); // 42 bytes, 4.2 s: every byte well within any idle timeout
    });
    assert.deepEqual(parse(answer), { status: 408, body: TIMED_OUT });
    // Cut at the bound (1 s, checked every 100 ms), not after node:http's default of 300 s.
    assert.ok(answer.closedAfterMs >= 1000 && answer.closedAfterMs < 4000, `closed after ${answer.closedAfterMs} ms`);
  });

  it('answers headers still arriving after BODY_TIMEOUT_MS with 408 too', async () => {
    const answer = await exchange(port, (socket) =>
      trickle(socket, `GET /v2/shorten-domains HTTP/1.1\r\nHost: short.test\r\nX-Slow: ${'x'.repeat(60)}\r\n\r\n`, 50),
    );
    assert.deepEqual(parse(answer), { status: 408, body: TIMED_OUT });
  });

  it('bounds each request, not the connection: a keep-alive connection idle longer than the bound still serves its next request', async () => {
    const body = JSON.stringify([{ url: 'https://example.com/in-time' }]);
    const answer = await exchange(port, async (socket) => {
      socket.write('GET /v2/shorten-domains HTTP/1.1\r\nHost: short.test\r\n\r\n');
      await sleep(1500);
      // A body in two parts, within the bound.
      socket.write(`${BULK_HEAD}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`);
      await sleep(300);
      socket.write(body.slice(10));
    });
    const statuses = [...answer.data.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    assert.deepEqual(statuses, [200, 200], answer.data);
  });

  it('closes connections past MAX_CONNECTIONS at once, logs it, and takes new ones when one closes', async () => {
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const socket = net.connect(port, '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        open.push(socket);
      }
      // node:http counts a connection once it has accepted it.
      for (let i = 0; i < 50 && (await new Promise<number>((r) => app.server.getConnections((_e, n) => r(n)))) < 3; i++) await sleep(20);

      const refused = await exchange(port, (socket) => {
        socket.write('GET /v2/shorten-domains HTTP/1.1\r\nHost: short.test\r\n\r\n');
      });
      assert.equal(refused.data, '');
      const warning = log.lines.find((line) => line.msg === 'connections refused: MAX_CONNECTIONS were open');
      assert.deepEqual(
        { level: warning?.level, dropped: warning?.dropped, maxConnections: warning?.maxConnections },
        { level: 40, dropped: 1, maxConnections: 3 },
      );

      open.pop()?.destroy();
      await sleep(100);
      const served = await exchange(port, (socket) => {
        socket.write('GET /v2/shorten-domains HTTP/1.1\r\nHost: short.test\r\nConnection: close\r\n\r\n');
      });
      assert.equal(parse(served).status, 200);
    } finally {
      for (const socket of open) socket.destroy();
    }
  });
});

describe('the 408 written on the socket', () => {
  /** A socket as node:http hands it to clientError, recording what is written on it. */
  function fakeSocket(answer: { headersSent: boolean } | undefined) {
    const written: string[] = [];
    let destroyed = false;
    const socket = {
      writable: true,
      get destroyed() {
        return destroyed;
      },
      _httpMessage: answer,
      write: (text: string) => written.push(text),
      destroy: () => {
        destroyed = true;
      },
    };
    return { socket: socket as unknown as net.Socket, written, isDestroyed: () => destroyed };
  }
  const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

  it('is written when no answer has begun on the connection, then the connection closed', () => {
    for (const answer of [undefined, { headersSent: false }]) {
      const { socket, written, isDestroyed } = fakeSocket(answer);
      clientErrorHandler(timeout, socket);
      assert.equal(written.length, 1);
      assert.match(
        written[0]!,
        /^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*\{"message":"The request took too long to arrive","code":"E_BAD_REQUEST"\}$/,
      );
      assert.ok(isDestroyed());
    }
  });

  it('is not written in the middle of an answer already begun (it would corrupt it): the connection is only closed', () => {
    const { socket, written, isDestroyed } = fakeSocket({ headersSent: true });
    clientErrorHandler(timeout, socket);
    assert.deepEqual(written, []);
    assert.ok(isDestroyed());
  });
});
