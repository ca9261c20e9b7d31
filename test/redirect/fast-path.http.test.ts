// The raw node:http fast path and the Fastify GET /:key route give the same answers.
// A query string makes a request skip the fast path, so `/key?via=fastify` is the route (with
// FORWARD_QUERY off, so that both answers name the same location).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import { eventually } from '../support/app.js';
import { storedClicks } from '../support/database.js';

const HOST = 'brief.test';
let dir: string;
let database: Database;
let app: ReturnType<typeof buildApp>;
let port: number;

function request(method: string, url: string, host = HOST) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const comparable = (r: Awaited<ReturnType<typeof request>>) => ({
  status: r.status,
  location: r.headers.location,
  cacheControl: r.headers['cache-control'],
  contentType: r.headers['content-type'],
  contentLength: r.headers['content-length'],
  body: r.body,
});

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-fast-path-'));
  const config = loadConfig({
    DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
    BASE_URL: `http://${HOST}`,
    LOG_LEVEL: 'silent',
    CLICK_FLUSH_MS: '10',
    FORWARD_QUERY: 'off',
  });
  database = openDatabase(config.database);
  await migrateToLatest(database);
  app = buildApp(config, { database });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as { port: number }).port;
});

after(async () => {
  await app.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function shorten(url: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: `/v2/shorten?url=${encodeURIComponent(url)}` });
  assert.equal(response.statusCode, 200);
  return response.json().code;
}

test('a live link: same 301 from the fast path and the route, for GET and HEAD, Host in any case', async () => {
  const key = await shorten('https://example.com/fast');
  for (const method of ['GET', 'HEAD']) {
    const fast = await request(method, `/${key}`, HOST.toUpperCase());
    const routed = await request(method, `/${key}?via=fastify`);
    assert.equal(fast.status, 301);
    assert.equal(fast.headers.location, 'https://example.com/fast');
    assert.deepEqual(comparable(fast), comparable(routed));
  }
});

test('unknown and blocked links: same 404 and 410 pages', async () => {
  const unknown = [await request('GET', '/nosuchkey'), await request('GET', '/nosuchkey?via=fastify')];
  assert.equal(unknown[0]!.status, 404);
  assert.deepEqual(comparable(unknown[0]!), comparable(unknown[1]!));

  const key = await shorten('https://example.com/blocked');
  await database.write((db) => db.updateTable('links').set({ status: 'blocked' }).where('key', '=', key).execute());
  const blocked = [await request('GET', `/${key}`), await request('GET', `/${key}?via=fastify`)];
  assert.equal(blocked[0]!.status, 410);
  assert.deepEqual(comparable(blocked[0]!), comparable(blocked[1]!));
});

test('clicks are counted for GET on both paths, never for HEAD', async () => {
  const key = await shorten('https://example.com/clicks');
  await request('GET', `/${key}`);
  await request('GET', `/${key}?via=fastify`);
  await request('HEAD', `/${key}`);
  await request('HEAD', `/${key}?via=fastify`);
  // Every request above is counted in memory before this line; the flush may be slow on a loaded machine, so wait for
  // it rather than a fixed time, then let one more flush pass: a HEAD counted would show as 3 or 4.
  assert.ok(await eventually(async () => (await storedClicks(database, key)) >= 2, 250, 20), 'the clicks are written');
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(await storedClicks(database, key), 2);
});
