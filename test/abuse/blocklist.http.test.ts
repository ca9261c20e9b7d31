// The destination blocklist (issue 15): shortening to a blocked host (or a subdomain) is 422,
// existing links to it answer 410 on every instance within a second, BLOCKLIST_FILE is read
// at start and on SIGHUP; and `brief link block --reason`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { normalizeHost } from '../../src/abuse/blocked-hosts.js';
import { parseBlocklist } from '../../src/abuse/blocklist-file.js';
import { BASE_HOST, buildTestApp, qs, type TestApp, useTestApp } from '../support/app.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}`;

for (const dialect of dialects) {
  describe(`destination blocklist (${dialect})`, () => {
    let db: TestDatabase;
    let one: TestApp;
    let two: TestApp;
    before(async () => {
      db = await openTestDatabase(dialect);
      // Two instances on one database, polling it as servers do (CHANGE_POLL_MS 500, the default).
      [one, two] = await Promise.all([buildTestApp(db.database, { CHANGE_POLL_MS: '500' }), buildTestApp(db.database, { CHANGE_POLL_MS: '500' })]);
    });
    after(async () => {
      await one?.close();
      await two?.close();
      await db?.cleanup();
    });

    const shorten = (app: TestApp, url: string) => app.app.inject({ url: `/v2/shorten?${qs({ url })}` });
    const visit = (app: TestApp, code: string) => app.app.inject({ url: `/${code}`, headers: { host: BASE_HOST } });

    it('answers 410 for existing links to a blocked host and its subdomains on every instance within a second, and 422 to new ones', async () => {
      const host = `phish-${unique()}.example`;
      const urls = [`https://${host}/login`, `https://www.${host}/a?b=c`, `http://deep.sub.${host}:8080/`, `https://not${host}/`];
      const codes: string[] = [];
      for (const url of urls) {
        const res = await shorten(one, url);
        assert.equal(res.statusCode, 200, res.body);
        codes.push(res.json().code);
      }
      // Cached on both instances before the add.
      for (const app of [one, two]) for (const code of codes) assert.equal((await visit(app, code)).statusCode, 301);

      const added = Date.now();
      assert.deepEqual(await oneBlocklist(one).add(host.toUpperCase()), { host, added: true });
      const blocked = codes.slice(0, 3);
      await waitUntil(async () => {
        for (const app of [one, two]) for (const code of blocked) if ((await visit(app, code)).statusCode !== 410) return false;
        return true;
      }, added + 1000);
      for (const app of [one, two]) {
        const res = await visit(app, blocked[0]!);
        assert.match(res.body, /disabled/);
        assert.equal((await visit(app, codes[3]!)).statusCode, 301, 'a host that merely ends with the name is not covered');
      }

      for (const app of [one, two]) {
        for (const url of [`https://${host}/new`, `https://x.${host}/`, `https://${host.toUpperCase()}./`]) {
          const res = await shorten(app, url);
          assert.equal(res.statusCode, 422, url);
          assert.deepEqual(res.json(), {
            message: 'The url field points to a blocked host',
            code: 'E_VALIDATION_ERROR',
            errors: [{ field: 'url', rule: 'blocked', message: 'The url field points to a blocked host' }],
          });
        }
        const v3 = await app.app.inject({ url: `/v3/shorten?${qs({ url: `https://${host}/v3` })}` });
        assert.equal(v3.statusCode, 422);
        const bulk = await app.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          payload: [{ url: `https://${host}/b` }, { url: 'https://example.org/fine' }],
        });
        assert.equal(bulk.statusCode, 200);
        assert.deepEqual(bulk.json()[0], {
          url: `https://${host}/b`,
          error: 'E_VALIDATION_ERROR',
          message: 'The url field points to a blocked host',
        });
        assert.equal(typeof bulk.json()[1].id, 'string', 'the other items are still made');
      }

      // An edit may not point a link there either.
      const account = await one.account();
      const mine = (await one.app.inject({ url: `/v3/shorten?${qs({ url: 'https://example.org/edit-me' })}`, headers: account.headers })).json();
      const edit = await one.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/${mine.domain}/${mine.slug}`,
        headers: account.headers,
        payload: { url: `https://${host}/x` },
      });
      assert.equal(edit.statusCode, 422, edit.body);

      // Removed: the links redirect again, everywhere.
      await oneBlocklist(one).remove(host);
      await waitUntil(async () => {
        for (const app of [one, two]) for (const code of blocked) if ((await visit(app, code)).statusCode !== 301) return false;
        return true;
      }, Date.now() + 1000);
    });

    it('keeps a password form and an expiry behind the block', async () => {
      const host = `guarded-${unique()}.example`;
      const account = await one.account();
      const [made] = (
        await one.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: account.headers,
          payload: [{ url: `https://${host}/`, password: 'secret1' }],
        })
      ).json();
      assert.equal((await visit(one, made.slug)).statusCode, 200);
      await oneBlocklist(one).add(host);
      await waitUntil(async () => (await visit(one, made.slug)).statusCode === 410, Date.now() + 1000);
      const posted = await one.app.inject({
        method: 'POST',
        url: `/${made.slug}`,
        headers: { host: BASE_HOST, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'password=secret1',
      });
      assert.equal(posted.statusCode, 410, 'the right password does not lead to a blocked host');
      assert.equal(posted.headers.location, undefined);
    });

    it('refuses what is not a host', async () => {
      for (const bad of ['', 'https://x.example/', 'x.example/path', 'x.example:8080', 'a b.example', 'user@x.example']) {
        await assert.rejects(oneBlocklist(one).add(bad), /is not a host name/, bad);
      }
      await assert.rejects(oneBlocklist(one).remove('never-added.example'), /not on the blocklist/);
    });
  });
}

/** The test app's blocklist service (the CLI's: it writes to the database the instances poll). */
function oneBlocklist(app: TestApp) {
  return app.blocklist;
}

async function waitUntil(check: () => Promise<boolean>, deadline: number): Promise<void> {
  for (;;) {
    if (await check()) return;
    assert.ok(Date.now() < deadline, `not within a second (${Date.now() - deadline + 1000} ms)`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('BLOCKLIST_FILE', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-blocklist-'));
  const file = path.join(dir, 'hosts.txt');
  fs.writeFileSync(file, '# a phishing list\nlisted-one.example\n0.0.0.0 listed-two.example # hosts-file form\n\nnot a host\n');
  const ctx = useTestApp('sqlite', { BLOCKLIST_FILE: file });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const shorten = (url: string) => ctx.t.app.inject({ url: `/v2/shorten?${qs({ url })}` });

  it('is read at start, and again on SIGHUP', async () => {
    assert.equal((await shorten('https://listed-one.example/')).statusCode, 422);
    assert.equal((await shorten('https://www.listed-two.example/')).statusCode, 422);
    const later = await shorten('https://listed-later.example/');
    assert.equal(later.statusCode, 200);

    fs.writeFileSync(file, 'listed-later.example\n');
    process.emit('SIGHUP', 'SIGHUP');
    const visit = () => ctx.t.app.inject({ url: `/${later.json().code}`, headers: { host: BASE_HOST } });
    await waitUntil(async () => (await visit()).statusCode === 410, Date.now() + 1000);
    assert.equal((await shorten('https://listed-one.example/')).statusCode, 200, 'hosts no longer in the file are not blocked');

    // A file that cannot be read keeps what was read before.
    fs.rmSync(file);
    process.emit('SIGHUP', 'SIGHUP');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal((await visit()).statusCode, 410);
  });

  it('parses one host per line, # comments and hosts-file lines; the rest is skipped and counted', () => {
    assert.deepEqual(
      parseBlocklist('A.Example\n# c\n  b.example  # why\n127.0.0.1 c.example\n0.0.0.0 d.example e.example\nbad/host\nbücher.example\n'),
      {
        hosts: ['a.example', 'b.example', 'c.example', 'xn--bcher-kva.example'],
        skipped: 2,
      },
    );
    assert.equal(normalizeHost('Sub.Example.COM.'), 'sub.example.com');
    assert.equal(normalizeHost('[::1]'), '[::1]');
  });
});

describe('brief link block --reason', () => {
  const ctx = useTestApp('sqlite');

  it('keeps the reason with the blocked link, shown by link show, and drops it on unblock', async () => {
    const made = (await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: 'https://example.org/reasoned' })}` })).json();
    await ctx.t.links.setStatus(made.code, 'blocked', '  phishing report #42 ');
    const shown = await ctx.t.links.show(made.code);
    assert.equal(shown.status, 'blocked');
    assert.equal(shown.blockReason, 'phishing report #42');
    await ctx.t.links.setStatus(made.code, 'public');
    const again = await ctx.t.links.show(made.code);
    assert.equal(again.blockReason, undefined);
    await ctx.t.links.setStatus(made.code, 'blocked');
    assert.equal((await ctx.t.links.show(made.code)).blockReason, null);
  });
});
