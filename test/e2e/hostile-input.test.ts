// Hostile input over real HTTP: the fuzz (harness/hostile/) in a short run against the built
// server as a process, and the requests node:http would otherwise answer (or drop) outside
// the documented error shape, written byte by byte on a socket.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseResponse } from '../../harness/hostile/client.js';
import { errorBodyProblem } from '../../harness/hostile/error-shape.js';
import { runFuzz, verdict } from '../../harness/hostile/fuzz-run.js';
import { type FuzzServer, startFuzzServer } from '../../harness/hostile/fuzz-server.js';

/** Writes `bytes` on a new connection and reads until the server closes it. */
function exchange(port: number, bytes: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in time')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

describe('hostile input against the server process', () => {
  let fuzz: FuzzServer;
  before(async () => {
    fuzz = await startFuzzServer();
  });
  after(async () => {
    await fuzz?.close();
  });

  it('5,000 generated hostile requests: no 5xx, every /v2 and /v3 error as {message, code}, the server still serving', {
    timeout: 120_000,
  }, async () => {
    const report = await runFuzz({
      port: fuzz.server.port,
      targets: fuzz.targets,
      checkToken: fuzz.checkToken,
      requests: 5_000,
      concurrency: 8,
      seed: 20261123,
      rssBytes: () => fuzz.server.rssBytes(),
    });
    assert.equal(report.requests, 5_000);
    assert.ok(report.routes >= 28, `the API document lists ${report.routes} operations`);
    // Memory is not judged on a run this short (the heap is still growing into its working size).
    const failures = verdict(report, Number.POSITIVE_INFINITY);
    assert.deepEqual(failures, [], JSON.stringify(report.problems.slice(0, 3), null, 2));
    assert.equal(fuzz.server.child.exitCode, null);
    // The mix reached past the HTTP parser: successes, validation errors and refusals by the parser all occur.
    for (const status of ['200', '400', '401', '404', '422'])
      assert.ok((report.byStatus[status] ?? 0) > 0, `no ${status} in ${JSON.stringify(report.byStatus)}`);
  });

  it('answers an HTTP/1.1 request without Host with 400 E_BAD_REQUEST as JSON, not a bare 400', async () => {
    for (const target of ['/v2/shorten?url=https%3A%2F%2Fexample.com', '/launch']) {
      const answer = parseResponse(await exchange(fuzz.server.port, `GET ${target} HTTP/1.1\r\nConnection: close\r\n\r\n`), false);
      assert.equal(answer.status, 400);
      assert.match(answer.contentType ?? '', /^application\/json/);
      assert.equal(errorBodyProblem(answer.body), null);
      assert.equal(JSON.parse(answer.body).code, 'E_BAD_REQUEST');
    }
    // HTTP/1.0 has no Host requirement: the API answers it as any other request.
    const old = parseResponse(await exchange(fuzz.server.port, 'GET /v2/shorten-domains HTTP/1.0\r\n\r\n'), false);
    assert.equal(old.status, 200);
  });

  it('answers an unknown path under a percent-encoded /v2 or /v3 as the API does: JSON E_ROUTE_NOT_FOUND', async () => {
    for (const target of ['/%76%32/nothing', '/v%33/shorten/nothing', '/%76%32']) {
      const response = await fetch(`http://127.0.0.1:${fuzz.server.port}${target}`);
      assert.equal(response.status, 404, target);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, target);
      assert.equal(((await response.json()) as { code: string }).code, 'E_ROUTE_NOT_FOUND');
    }
  });

  it('answers an unknown path in absolute form (GET http://host/v2/…) as the API does: JSON E_ROUTE_NOT_FOUND', async () => {
    const raw = `GET http://brief.fuzz/v2/nothing HTTP/1.1\r\nHost: brief.fuzz\r\nConnection: close\r\n\r\n`;
    const answer = parseResponse(await exchange(fuzz.server.port, raw), false);
    assert.equal(answer.status, 404);
    assert.match(answer.contentType ?? '', /^application\/json/);
    assert.equal(JSON.parse(answer.body).code, 'E_ROUTE_NOT_FOUND');
  });

  it('answers CONNECT with 400 E_BAD_REQUEST as JSON instead of closing the connection without a word', async () => {
    const answer = parseResponse(await exchange(fuzz.server.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'), false);
    assert.equal(answer.status, 400);
    assert.equal(errorBodyProblem(answer.body), null);
    assert.equal(JSON.parse(answer.body).code, 'E_BAD_REQUEST');
  });
});
