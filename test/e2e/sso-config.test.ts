// Single sign-on's configuration against the built server (dist/main.js) as a real process: an OIDC_ISSUER
// that is not an https URL, or a half-set configuration, stops the start with one line naming what is wrong
// or missing, and nothing is served.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { freePort, runCli } from '../support/process.js';

describe('single sign-on configuration at start', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-sso-config-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const base = { DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`, LOG_LEVEL: 'info' };

  it('stops the start naming OIDC_ISSUER, or what a half-set configuration lacks', { timeout: 120_000 }, async () => {
    for (const [extra, named] of [
      [{ OIDC_ISSUER: 'not a url', OIDC_CLIENT_ID: 'brief' }, /OIDC_ISSUER must be an https URL/],
      [{ OIDC_ISSUER: 'https://accounts.example.com' }, /OIDC_CLIENT_ID must be set when OIDC_ISSUER is/],
      [{ OIDC_CLIENT_ID: 'brief', OIDC_CLIENT_SECRET: 'secret' }, /OIDC_ISSUER must be set when OIDC_CLIENT_ID is/],
    ] as const) {
      const result = await runCli({ ...base, PORT: String(await freePort()), ...extra }, 'serve');
      assert.notEqual(result.code, 0, JSON.stringify(extra));
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, named);
    }
  });
});
