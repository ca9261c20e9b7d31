// A stop (SIGTERM) of the built server as a real process: /readyz says 503 from the first moment,
// no new connection is accepted, a request in flight is answered and what it made is kept, counted
// clicks are written, exit 0; a request still running past SHUTDOWN_GRACE_MS is cut and does not
// keep the process alive.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { eventually, request, ServerProcess, sleep } from '../scale-support/server-process.js';

const HOST = 'short.test';

/** A raw connection: the test sends a request in pieces and reads what comes back until the server closes it. */
class RawClient {
  private readonly socket: net.Socket;
  private received = '';
  readonly closed: Promise<string>;

  constructor(port: number) {
    this.socket = net.connect(port, '127.0.0.1');
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.received += chunk));
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve(this.received)));
  }

  send(text: string): void {
    this.socket.write(text);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** The status and JSON body of the first response in `raw`. */
function firstResponse(raw: string): { status: number; head: string; body: any } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, end).toLowerCase();
  const length = Number(/content-length: (\d+)/.exec(head)?.[1] ?? 0);
  return { status, head, body: JSON.parse(raw.slice(end + 4, end + 4 + length)) };
}

describe('graceful stop (SIGTERM)', () => {
  let server: ServerProcess | undefined;
  let dir: string;
  const clients: RawClient[] = [];

  const start = async (env: Record<string, string>) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-stop-'));
    server = await ServerProcess.start({
      DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
      BASE_URL: `http://${HOST}`,
      LOG_LEVEL: 'info',
      // Counted clicks are written only by the stop itself here.
      CLICK_FLUSH_MS: '600000',
      BODY_TIMEOUT_MS: '600000',
      ...env,
    });
    return server;
  };
  const raw = (port: number) => {
    const client = new RawClient(port);
    clients.push(client);
    return client;
  };

  afterEach(() => {
    for (const client of clients.splice(0)) client.destroy();
    server?.kill();
    server = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the request in flight, says 503 on /readyz meanwhile, refuses new connections, keeps its link and clicks, exits 0', async () => {
    const s = await start({ SHUTDOWN_GRACE_MS: '30000' });
    const made = await request(s.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/before-the-stop')}`);
    assert.equal(made.status, 200, made.body);
    const code: string = made.json().code;
    for (let i = 0; i < 3; i++) assert.equal((await request(s.port, 'GET', `/${code}`, { host: HOST })).status, 301);
    assert.equal((await request(s.port, 'GET', '/readyz', { host: HOST })).status, 200);

    // In flight: a bulk create whose body has only begun to arrive.
    const body = JSON.stringify([{ url: 'https://example.com/in-flight-at-the-stop' }]);
    const upload = raw(s.port);
    upload.send(`POST /v3/shorten/bulk HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    upload.send(body.slice(0, 10));
    // A probe on a connection open before the stop, its request not yet whole.
    const probe = raw(s.port);
    probe.send(`GET /readyz HTTP/1.1\r\nHost: ${HOST}\r\n`);
    await sleep(300);

    s.signal('SIGTERM');
    assert.ok(await eventually(async () => s.log.includes('stopping: no new connections'), 10_000), s.log);
    await assert.rejects(request(s.port, 'GET', '/healthz', { host: HOST }), /ECONNREFUSED/);

    probe.send('\r\n');
    const ready = firstResponse(await probe.closed);
    assert.equal(ready.status, 503);
    assert.deepEqual(ready.body, { status: 'not ready', reason: 'stopping', message: 'The server is stopping' });
    assert.match(ready.head, /connection: close/);

    upload.send(body.slice(10));
    const created = firstResponse(await upload.closed);
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body[0].url, 'https://example.com/in-flight-at-the-stop');
    assert.match(created.body[0].shortLink, /^http:\/\/short\.test\//);

    assert.equal(await s.exited, 0, s.log);
    // The process did not wait for the grace: once the requests were answered, it stopped.
    assert.doesNotMatch(s.log, /are cut/);
    const sqlite = new SQLite(path.join(dir, 'brief.db'), { readonly: true });
    try {
      const link = sqlite.prepare('select id from links where url = ?').get('https://example.com/in-flight-at-the-stop');
      assert.ok(link, 'the link acknowledged during the stop is stored');
      const clicks = sqlite
        .prepare('select coalesce(sum(c.clicks), 0) as n from link_clicks c join links l on l.id = c.link_id where l.code = ?')
        .get(code) as { n: number };
      assert.equal(clicks.n, 3);
    } finally {
      sqlite.close();
    }
  });

  it('cuts a request still running past SHUTDOWN_GRACE_MS, writes what was counted and exits 0', { timeout: 60_000 }, async () => {
    const s = await start({ SHUTDOWN_GRACE_MS: '500' });
    const made = await request(s.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/counted')}`);
    const code: string = made.json().code;
    assert.equal((await request(s.port, 'GET', `/${code}`, { host: HOST })).status, 301);

    // A body that never finishes (BODY_TIMEOUT_MS is ten minutes here).
    const stuck = raw(s.port);
    stuck.send(`POST /v3/shorten/bulk HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[`);
    await sleep(300);

    s.signal('SIGTERM');
    assert.equal(await s.exited, 0, s.log);
    assert.match(s.log, /requests still running after SHUTDOWN_GRACE_MS are cut/);
    assert.equal(await stuck.closed, '', 'cut without an answer');
    const sqlite = new SQLite(path.join(dir, 'brief.db'), { readonly: true });
    try {
      const clicks = sqlite
        .prepare('select coalesce(sum(c.clicks), 0) as n from link_clicks c join links l on l.id = c.link_id where l.code = ?')
        .get(code) as { n: number };
      assert.equal(clicks.n, 1);
    } finally {
      sqlite.close();
    }
  });

  it('loses no acknowledged link and no counted click when SIGTERM lands during a load', { timeout: 60_000 }, async () => {
    const s = await start({ SHUTDOWN_GRACE_MS: '30000' });
    const made = await request(s.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/visited-under-load')}`);
    const code: string = made.json().code;
    const acknowledged: string[] = [];
    let visits = 0;
    let stopped = false;
    // Four clients, each making a link and visiting one, on a new connection each time, until the server refuses them.
    const client = async (n: number) => {
      for (let i = 0; !stopped; i++) {
        try {
          const link = await request(s.port, 'GET', `/v2/shorten?url=${encodeURIComponent(`https://example.com/load/${n}/${i}`)}`);
          if (link.status === 200) acknowledged.push(link.json().code);
          const visit = await request(s.port, 'GET', `/${code}`, { host: HOST });
          if (visit.status === 301) visits++;
        } catch {
          return; // refused: the server has stopped accepting
        }
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    // Both counts past 20 before the stop: a client acknowledges its link before it visits.
    await eventually(async () => acknowledged.length >= 20 && visits >= 20, 20_000, 10);
    s.signal('SIGTERM');
    const exit = await s.exited;
    stopped = true;
    await load;
    assert.equal(exit, 0, s.log);
    assert.ok(acknowledged.length >= 20 && visits >= 20, `${acknowledged.length} links, ${visits} visits`);
    const sqlite = new SQLite(path.join(dir, 'brief.db'), { readonly: true });
    try {
      const stored = new Set((sqlite.prepare('select code from links').all() as Array<{ code: string }>).map((row) => row.code));
      for (const made of acknowledged) assert.ok(stored.has(made), `acknowledged link ${made} is stored`);
      const clicks = sqlite
        .prepare('select coalesce(sum(c.clicks), 0) as n from link_clicks c join links l on l.id = c.link_id where l.code = ?')
        .get(code) as { n: number };
      assert.equal(clicks.n, visits);
    } finally {
      sqlite.close();
    }
  });
});
