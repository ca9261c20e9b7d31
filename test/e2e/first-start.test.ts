// Issue 25 item 1 against the built server (dist/main.js) as a real process: the start log says which address to
// open (BASE_URL) and warns when BASE_URL was left at its default while HOST takes other machines' requests; the
// listen address the log also prints answers the web app and the default domain's links; a bad STRICT_HOSTS or
// FORWARD_QUERY stops the start naming it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, hostRequest, MAIN, runCli } from '../support/process.js';

describe('the first start', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-first-start-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const base = { DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`, LOG_LEVEL: 'info' };

  it('logs the address to open, warns of a default BASE_URL on 0.0.0.0, and answers the listen address as the default domain', async () => {
    const port = await freePort();
    const { BASE_URL: _unset, ...inherited } = process.env;
    const child = spawn(process.execPath, [MAIN, 'serve'], {
      env: { ...inherited, ...base, PORT: String(port), HOST: '0.0.0.0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 200 && !out.includes('BASE_URL is not set'); i++) await new Promise((r) => setTimeout(r, 50));
      const lines = out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { level: number; msg: string });
      const open = lines.find((line) => line.msg === `open http://localhost:${port}`);
      assert.ok(open, out);
      assert.equal(open.level, 30, 'info');
      const warning = lines.find((line) => line.msg.startsWith('BASE_URL is not set'));
      assert.ok(warning, out);
      assert.equal(warning.level, 40, 'warn');
      assert.match(warning.msg, /HOST 0\.0\.0\.0/);

      // The address Fastify's own line prints, and a LAN-style name: the web app and the default domain's links.
      for (const host of [`127.0.0.1:${port}`, 'brief-container:3000']) {
        const page = await hostRequest(port, host, '/');
        assert.equal(page.status, 200, host);
        assert.match(page.body, /\/assets\/index-|<html/i);
      }
      const made = await fetch(`http://127.0.0.1:${port}/v2/shorten?url=${encodeURIComponent('https://example.com/first')}`);
      assert.equal(made.status, 200);
      const { code } = (await made.json()) as { code: string };
      const visit = await hostRequest(port, `127.0.0.1:${port}`, `/${code}?utm_source=log`);
      assert.equal(visit.status, 301);
      assert.equal(visit.headers.location, 'https://example.com/first?utm_source=log');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('stops the start naming STRICT_HOSTS or FORWARD_QUERY when either is not on or off', async () => {
    for (const [name, value] of [
      ['STRICT_HOSTS', 'yes'],
      ['FORWARD_QUERY', 'maybe'],
    ] as const) {
      const result = await runCli({ ...base, PORT: String(await freePort()), [name]: value }, 'serve');
      assert.notEqual(result.code, 0, name);
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, new RegExp(`${name} must be on or off, got "${value}"`));
    }
  });
});
