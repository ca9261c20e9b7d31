// Requests node:http itself refuses, before any route runs, still get the JSON error shape.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../support/app.js';
import { openTestDatabase, type TestDatabase } from '../support/database.js';

/** Sends raw bytes and reads the whole answer (the server closes the connection after an error). */
function rawRequest(port: number, bytes: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

describe('requests refused by the HTTP parser', () => {
  let db: TestDatabase;
  let t: TestApp;
  let port: number;

  before(async () => {
    db = await openTestDatabase('sqlite');
    t = await buildTestApp(db.database);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });

  after(async () => {
    await t?.close();
    await db?.cleanup();
  });

  it('answers headers over the size limit (a huge query string) with 431 and { message, code }', async () => {
    const url = `/v2/shorten?url=${encodeURIComponent(`https://example.com/${'x'.repeat(20_000)}`)}`;
    const res = await rawRequest(port, `GET ${url} HTTP/1.1\r\nHost: short.test\r\n\r\n`);
    assert.equal(res.status, 431);
    assert.match(res.headers, /content-type: application\/json/i);
    assert.deepEqual(JSON.parse(res.body), { message: 'The request headers are too large (at most 16 KB, URL included)', code: 'E_BAD_REQUEST' });
  });

  it('answers a malformed request line with 400 and { message, code }', async () => {
    const res = await rawRequest(port, 'NOT HTTP AT ALL\r\n\r\n');
    assert.equal(res.status, 400);
    assert.deepEqual(JSON.parse(res.body), { message: 'The request is not valid HTTP', code: 'E_BAD_REQUEST' });
  });
});
