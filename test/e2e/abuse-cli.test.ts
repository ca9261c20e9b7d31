// The abuse controls from the command line, against a running server (issue 15):
// `brief blocklist add|list|remove`, `brief link block --reason` shown by `brief link show`,
// and BLOCKLIST_FILE read again on a real SIGHUP.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { eventually, request, runCli, serverSuite } from '../scale-support/server-process.js';

const SHORT_HOST = 'short.test';

describe('abuse controls from the CLI', () => {
  const suite = serverSuite('brief-abuse-', (dir) => ({
    BASE_URL: `http://${SHORT_HOST}`,
    BLOCKLIST_FILE: path.join(dir, 'phishing.txt'),
    CHANGE_POLL_MS: '100',
  }));
  const { env, cli } = suite;
  const listFile = env.BLOCKLIST_FILE;
  fs.writeFileSync(listFile, '# a public list\nfrom-the-file.example\n');

  const shorten = (url: string) => request(suite.server.port, 'GET', `/v2/shorten?${new URLSearchParams({ url })}`);
  const visit = (code: string) => request(suite.server.port, 'GET', `/${code}`, { host: SHORT_HOST });

  it('blocks a host for the running server, lists and removes it', async () => {
    const made = (await shorten('https://www.bad-actor.example/login')).json();
    assert.equal((await visit(made.code)).status, 301);
    assert.match(await cli('blocklist', 'add', 'Bad-Actor.example'), /^blocked bad-actor\.example and its subdomains/);
    assert.match(await cli('blocklist', 'add', 'bad-actor.example'), /already blocked/);
    assert.ok(await eventually(async () => (await visit(made.code)).status === 410, 2_000));
    assert.equal((await shorten('https://bad-actor.example/')).status, 422);
    const listed = await cli('blocklist', 'list');
    assert.match(listed, /bad-actor\.example/);
    assert.match(listed, /and 1 hosts from BLOCKLIST_FILE/);
    assert.match(await cli('blocklist', 'remove', 'bad-actor.example'), /unblocked bad-actor\.example/);
    assert.ok(await eventually(async () => (await visit(made.code)).status === 301, 2_000));
    const missing = await runCli(['blocklist', 'remove', 'bad-actor.example'], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /not on the blocklist/);
    const bad = await runCli(['blocklist', 'add', 'https://x.example/path'], env);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /is not a host name/);
  });

  it('reads BLOCKLIST_FILE again on SIGHUP, and keeps serving', async () => {
    assert.equal((await shorten('https://from-the-file.example/')).status, 422);
    const later = (await shorten('https://added-later.example/')).json();
    fs.writeFileSync(listFile, 'added-later.example\n');
    suite.server.signal('SIGHUP');
    assert.ok(await eventually(async () => (await visit(later.code)).status === 410, 2_000), suite.server.log);
    assert.equal((await shorten('https://from-the-file.example/')).status, 200);
    assert.ok(suite.server.alive);
  });

  it('keeps the reason of a block, shown by link show', async () => {
    const made = (await shorten('https://example.com/reported')).json();
    assert.match(await cli('link', 'block', made.code, '--reason', 'phishing report #42'), /\(phishing report #42\)$/m);
    const shown = JSON.parse(await cli('link', 'show', made.code));
    assert.equal(shown.status, 'blocked');
    assert.equal(shown.blockReason, 'phishing report #42');
    await cli('link', 'unblock', made.code);
    assert.equal(JSON.parse(await cli('link', 'show', made.code)).blockReason, undefined);
  });
});
