// `brief import` beside a running server: an imported link redirects there without a
// restart, even a key that was just asked for and answered 404 (its cached miss does not outlive it), and
// the server's shortens keep being answered while a large import writes (batches hold the write lock briefly); a
// limited link imported with visits already counted has only the rest left.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, request, runCli, ServerProcess } from '../scale-support/server-process.js';

describe('brief import while a server runs', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-import-live-'));
    env = { DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`, BASE_URL: 'http://short.test' };
    server = await ServerProcess.start(env);
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const visit = (key: string) => request(server.port, 'GET', `/${key}`, { host: 'short.test' });

  it('serves an imported link, one asked for before the import included', async () => {
    assert.equal((await visit('moved')).status, 404);
    assert.equal((await visit('moved')).status, 404, 'asked twice: its miss is cached');
    const file = path.join(dir, 'one.csv');
    fs.writeFileSync(file, 'keyword,url,title,timestamp,ip,clicks\nmoved,https://example.com/moved,Moved,2020-01-01 00:00:00,127.0.0.1,0\n');
    const result = await runCli(['import', file, '--format', 'yourls'], env);
    assert.equal(result.code, 0, result.stderr);
    const redirected = await eventually(async () => (await visit('moved')).headers.location === 'https://example.com/moved', 5000);
    assert.ok(redirected, 'the imported link redirects on the running server');
  });

  it('counts the visits a Shlink link had used of its limit: 2 more people of 5, then 410', async () => {
    const file = path.join(dir, 'limited.json');
    const item = {
      shortCode: 'nearly',
      longUrl: 'https://example.com/nearly',
      meta: { maxVisits: 5 },
      visitsSummary: { total: 9, nonBots: 3, bots: 6 },
    };
    fs.writeFileSync(file, JSON.stringify({ shortUrls: { data: [item] } }));
    const result = await runCli(['import', file, '--format', 'shlink'], env);
    assert.equal(result.code, 0, result.stderr);
    // Polled until the server knows the link: its first redirect is the 4th visit (3 were counted by Shlink).
    assert.ok(await eventually(async () => (await visit('nearly')).status === 302, 5000), 'visit 4 redirects');
    assert.equal((await visit('nearly')).status, 302, 'visit 5 redirects');
    assert.equal((await visit('nearly')).status, 410, 'visit 6 is past the limit');
  });

  it("answers the server's shortens while an import of 20,000 links writes", async () => {
    const file = path.join(dir, 'many.csv');
    fs.writeFileSync(file, `url,slug\n${Array.from({ length: 20_000 }, (_, i) => `https://example.com/many/${i},many${i}`).join('\n')}\n`);
    const importing = runCli(['import', file, '--format', 'csv'], env);
    let done = false;
    void importing.then(() => {
      done = true;
    });
    const answers: number[] = [];
    while (!done) {
      const res = await request(server.port, 'GET', `/v2/shorten?${new URLSearchParams({ url: `https://example.org/during/${answers.length}` })}`);
      answers.push(res.status);
    }
    const result = await importing;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /imported 20000, .*; longest write \d+ ms$/m);
    assert.ok(answers.length > 0);
    assert.deepEqual(
      answers.filter((status) => status !== 200),
      [],
      'every shorten made during the import was answered 200',
    );
    assert.equal((await visit('many19999')).headers.location, 'https://example.com/many/19999');
  });
});
