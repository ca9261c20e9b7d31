// A client may send a whole request and then close its sending side (shutdown(SHUT_WR)); HTTP/1.1
// allows it, and the request must still be answered, also when its answer waits on the database.
import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { BASE_HOST, qs, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

/** Writes `bytes`, half-closes the socket at once and reads until the server closes it. */
function halfClosedExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let data = '';
    socket.setEncoding('utf8');
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in time')));
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(data));
  });
}

/** The status and JSON body of the first answer in `data`. */
function firstAnswer(data: string): { status: number; body: unknown } {
  const [head = '', body = ''] = data.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1] ?? 0), body: body ? JSON.parse(body) : undefined };
}

for (const dialect of dialects) {
  describe(`a half-closed client (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    async function listen(): Promise<number> {
      if (!ctx.t.app.server.listening) await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
      return (ctx.t.app.server.address() as net.AddressInfo).port;
    }

    it('gets the answer to a read that waits on the database (top short links)', async () => {
      const port = await listen();
      const account = await ctx.t.account();
      const data = await halfClosedExchange(
        port,
        `GET /v3/shorten/analytics/top-short-links HTTP/1.1\r\nHost: ${BASE_HOST}\r\nAuthorization: Bearer ${account.token}\r\n\r\n`,
      );
      const answer = firstAnswer(data);
      assert.equal(answer.status, 200, data);
      assert.deepEqual((answer.body as { data: unknown[] }).data, []);
    });

    it('gets the answer to a shorten whose link it made, and the link exists once', async () => {
      const port = await listen();
      const account = await ctx.t.account();
      const target = `https://example.com/half-closed/${dialect}`;
      const data = await halfClosedExchange(
        port,
        `GET /v2/shorten?${qs({ url: target })} HTTP/1.1\r\nHost: ${BASE_HOST}\r\nAuthorization: Bearer ${account.token}\r\n\r\n`,
      );
      const answer = firstAnswer(data);
      assert.equal(answer.status, 200, data);
      assert.equal((answer.body as { url: string }).url, target);
      const list = await ctx.t.app.inject({ method: 'GET', url: '/v3/shorten/list?perPage=50', headers: account.headers });
      assert.equal((list.json() as { links: Array<{ originalUrl: string }> }).links.filter((l) => l.originalUrl === target).length, 1);
    });
  });
}
