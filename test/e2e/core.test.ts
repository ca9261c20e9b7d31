// End to end: the built server (dist/main.js) as a real process on a free port, with a
// temporary SQLite database, driven over real HTTP; the admin CLI as real processes.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { type CliResult, freePort, hostRequest, runCli, type ServerProcess, startServer } from '../support/process.js';

const SHORT_HOST = 'short.e2e';
const TEAM_HOST = 'team.e2e';

function succeeded(result: CliResult, what: string): string {
  assert.equal(result.code, 0, `${what} failed: ${result.stderr}`);
  return result.stdout;
}

/** A user mistake: non-zero exit, one line on stderr, no stack trace. */
function failedCleanly(result: CliResult, what: string): void {
  assert.notEqual(result.code, 0, `${what} should fail`);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `${what}: expected one line on stderr, got:\n${result.stderr}`);
  assert.ok(lines[0]!.length > 0, `${what}: stderr is empty`);
  assert.doesNotMatch(result.stderr, /^\s+at /m, `${what}: stack trace on stderr`);
}

async function eventually(check: () => Promise<boolean>, attempts = 60, pauseMs = 50): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  return false;
}

describe('brief end to end', () => {
  let dir: string;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;
  let token: string;
  let tokenId: number;
  const cli = (...args: string[]) => runCli(env, ...args);
  const api = (pathAndQuery: string, init: RequestInit = {}) => fetch(`${server!.origin}${pathAndQuery}`, { redirect: 'manual', ...init });
  const auth = () => ({ authorization: `Bearer ${token}` });
  const visit = (shortened: string, method = 'GET') => {
    const url = new URL(shortened);
    return hostRequest(server!.port, url.host, url.pathname, method);
  };
  const shorten = async (params: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await api(`/v2/shorten?${new URLSearchParams(params)}`, { headers });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as { code: string; url: string; shortened: string; domain: string };
  };
  const start = async () => {
    server = await startServer(env);
  };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-e2e-'));
    env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      BASE_URL: `http://${SHORT_HOST}`,
      LOG_LEVEL: 'warn',
      CHANGE_POLL_MS: '100',
      ANALYTICS: 'full',
      // Long enough that only the shutdown flush writes clicks in these tests.
      CLICK_FLUSH_MS: '600000',
    };
    succeeded(await cli('account', 'create', 'alice'), 'account create');
    const created = succeeded(await cli('token', 'create', 'alice', '--label', 'e2e'), 'token create');
    const lines = created.trim().split('\n');
    token = lines[lines.length - 1]!.trim();
    assert.match(token, /^\S{20,}$/, 'the token alone on the last line');
    tokenId = Number(/token (\d+)/.exec(created)?.[1]);
    assert.ok(tokenId > 0);
    assert.ok(!fs.readFileSync(path.join(dir, 'brief.db')).includes(token), 'the token itself is not stored');
    succeeded(await cli('domain', 'add', TEAM_HOST, '--account', 'alice'), 'domain add');
    await start();
  });

  after(async () => {
    await server?.stop('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shortens, redirects by Host, deletes by the encoded short URL, and keeps acknowledged links across kill -9', async () => {
    const anonymous = await shorten({ url: 'https://example.com/e2e/anonymous' });
    assert.equal(anonymous.shortened, `http://${SHORT_HOST}/${anonymous.code}`);
    const team = await shorten({ url: 'https://example.com/e2e/team', domain: TEAM_HOST, slug: 'launch' }, auth());
    assert.equal(team.shortened, `https://${TEAM_HOST}/launch`);

    for (const link of [anonymous, team]) {
      const res = await visit(link.shortened);
      assert.equal(res.status, 301);
      assert.equal(res.headers.location, link.url);
      assert.equal((await visit(link.shortened, 'HEAD')).status, 301);
    }
    assert.equal((await hostRequest(server!.port, SHORT_HOST, '/launch')).status, 404, 'a link lives on its own domain only');

    const domains = (await (await api('/v2/shorten-domains', { headers: auth() })).json()) as any;
    assert.deepEqual(
      domains.data.map((d: any) => [d.domainName, d.visibility]),
      [
        [SHORT_HOST, 'public'],
        [TEAM_HOST, 'private'],
      ],
    );

    const del = await api(`/v2/links/${encodeURIComponent(team.shortened)}`, { method: 'DELETE', headers: auth() });
    assert.equal(del.status, 200);
    assert.deepEqual(await del.json(), { success: true });
    const gone = await visit(team.shortened);
    assert.equal(gone.status, 404);
    assert.match(String(gone.headers['content-type']), /text\/html/);
    const again = await api(`/v2/links/${encodeURIComponent(team.shortened)}`, { method: 'DELETE', headers: auth() });
    assert.equal(again.status, 404);
    assert.equal(((await again.json()) as any).code, 'E_NOT_FOUND');

    const acknowledged: Array<{ shortened: string; url: string }> = [anonymous];
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? shorten({ url: `https://example.com/e2e/kept/${i}` })
          : shorten({ url: `https://example.com/e2e/kept/${i}`, domain: TEAM_HOST, slug: `kept-${i}` }, auth()),
      ),
    );
    acknowledged.push(...made);
    // A bulk create is acknowledged by the same group commit: all of its links survive too.
    const bulk = await api('/v3/shorten/bulk', {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify(
        Array.from({ length: 50 }, (_, i) => ({ url: `https://example.com/e2e/bulk/${i}`, ...(i % 10 === 0 && { slug: `bulk-${i}` }) })),
      ),
    });
    assert.equal(bulk.status, 200);
    const bulkLinks = ((await bulk.json()) as Array<{ shortLink: string; url: string }>).map(({ shortLink, url }) => ({ shortened: shortLink, url }));
    assert.equal(bulkLinks.length, 50);
    acknowledged.push(...bulkLinks);

    await server!.stop('SIGKILL');
    await start();

    for (const link of acknowledged) {
      const res = await visit(link.shortened);
      assert.equal(res.status, 301, `${link.shortened} survives kill -9`);
      assert.equal(res.headers.location, link.url);
    }
    assert.equal((await visit(team.shortened)).status, 404, 'the deleted link stays deleted');
  });

  it('blocks and unblocks a link from the CLI while the server runs', async () => {
    const link = await shorten({ url: 'https://example.com/e2e/block' });
    assert.equal((await visit(link.shortened)).status, 301);
    succeeded(await cli('link', 'block', link.shortened), 'link block');
    assert.ok(await eventually(async () => (await visit(link.shortened)).status === 410), 'the running server answers 410');
    const page = await visit(link.shortened);
    assert.match(page.body, /disabled/i);
    const shown = JSON.parse(succeeded(await cli('link', 'show', link.code), 'link show'));
    assert.equal(shown.status, 'blocked');
    succeeded(await cli('link', 'unblock', link.code), 'link unblock');
    assert.ok(await eventually(async () => (await visit(link.shortened)).status === 301), 'redirects again');
  });

  it("lists a private domain's settings, made with v3, on the command line", async () => {
    const res = await api(`/v3/shorten/domains/${TEAM_HOST}`, {
      method: 'PATCH',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ randomCodeLength: 9, homePageRedirectUrl: 'https://example.com/team-home' }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const listed = succeeded(await cli('domain', 'list'), 'domain list');
    const team = listed.split('\n').find((line) => line.startsWith(TEAM_HOST));
    assert.ok(team, listed);
    // Added with the CLI: verified (decision 0019).
    assert.match(team, /private\s+alice\s+yes\s+9\s+https:\/\/example\.com\/team-home\s+-$/);
    assert.match(listed.split('\n')[0]!, /^domain\s+urlPrefix\s+visibility\s+owner\s+verified\s+codeLength\s+home\s+notFound$/);
  });

  it('answers 401 once the token is revoked', async () => {
    const before = await api('/v2/shorten-domains', { headers: auth() });
    assert.equal(before.status, 200);
    succeeded(await cli('token', 'revoke', String(tokenId)), 'token revoke');
    for (const res of [
      await api('/v2/shorten-domains', { headers: auth() }),
      await api(`/v2/shorten?${new URLSearchParams({ url: 'https://example.com/e2e/revoked' })}`, { headers: auth() }),
      await api('/v2/links/abc', { method: 'DELETE', headers: auth() }),
    ]) {
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as any).code, 'E_UNAUTHORIZED_ACCESS');
    }
  });

  it('prints one line and exits non-zero for CLI user mistakes', async () => {
    const mistakes: Array<[string, string[], Record<string, string>?]> = [
      ['duplicate account', ['account', 'create', 'alice']],
      ['bad account name', ['account', 'create', 'bad name!']],
      ['token for an unknown account', ['token', 'create', 'nobody']],
      ['tokens of an unknown account', ['token', 'list', 'nobody']],
      ['--expires-in abc', ['token', 'create', 'alice', '--expires-in', 'abc']],
      ['token revoke 999', ['token', 'revoke', '999']],
      ['token revoke abc', ['token', 'revoke', 'abc']],
      ['domain add without --account/--public', ['domain', 'add', 'x.e2e']],
      ['domain add for an unknown account', ['domain', 'add', 'x.e2e', '--account', 'nobody']],
      ['duplicate domain', ['domain', 'add', TEAM_HOST, '--public']],
      ['block an unknown link', ['link', 'block', 'NoSuchLink']],
      ['unknown command', ['bogus']],
      ['bad configuration', ['account', 'list'], { CODE_LENGTH: 'x' }],
    ];
    // Two at a time: each is a node process of its own.
    for (let i = 0; i < mistakes.length; i += 2) {
      const pair = mistakes.slice(i, i + 2);
      const results = await Promise.all(pair.map(([, args, extra]) => runCli({ ...env, ...extra }, ...args)));
      for (const [j, result] of results.entries()) failedCleanly(result, pair[j]![0]);
    }
  });

  it('refuses to start with bad configuration, naming the variable in one line', async () => {
    const result = await runCli({ ...env, PORT: String(await freePort()), REDIRECT_STATUS: '303' }, 'serve');
    failedCleanly(result, 'serve with REDIRECT_STATUS=303');
    assert.match(result.stderr, /REDIRECT_STATUS/);
  });

  it('shuts down on SIGTERM with exit code 0, flushing counted clicks', async () => {
    const link = await shorten({ url: 'https://example.com/e2e/clicks' });
    for (let i = 0; i < 3; i++) assert.equal((await visit(link.shortened)).status, 301);
    assert.equal((await visit(link.shortened, 'HEAD')).status, 301);
    const exit = await server!.stop('SIGTERM');
    assert.deepEqual(exit, { code: 0, signal: null });
    server = undefined;
    const shown = JSON.parse(succeeded(await cli('link', 'show', link.shortened), 'link show'));
    assert.equal(shown.clicks, 3);
    // …and the click events of those visits (analytics), HEAD aside.
    const sqlite = new SQLite(path.join(dir, 'brief.db'), { readonly: true });
    try {
      const row = sqlite
        .prepare(
          'select coalesce(sum(click_events.clicks), 0) as n from click_events join links on links.id = click_events.link_id where links.code = ?',
        )
        .get(link.code) as { n: number };
      assert.equal(row.n, 3);
    } finally {
      sqlite.close();
    }
  });

  it('shuts down on SIGINT with exit code 0 as well', async () => {
    await start();
    const link = await shorten({ url: 'https://example.com/e2e/sigint' });
    assert.equal((await visit(link.shortened)).status, 301);
    const exit = await server!.stop('SIGINT');
    assert.deepEqual(exit, { code: 0, signal: null });
    server = undefined;
    const shown = JSON.parse(succeeded(await cli('link', 'show', link.code), 'link show'));
    assert.equal(shown.clicks, 1);
  });
});
