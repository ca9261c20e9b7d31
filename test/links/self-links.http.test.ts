// No link to Brief itself (issue 37, part 6; decision 0015's addendum). A destination naming the instance
// by another of its addresses (127.0.0.1 for localhost, and the other way round), with a trailing dot, in
// upper case, with its default port written out, as IPv6 loopback, or a private domain's host with a
// trailing dot, was stored, and a client then followed 30 redirects. Every place that stores a
// destination — v2 and v3 shorten, bulk, edit, a domain's home and not-found redirects, import — now
// refuses them with the one validation error; an ordinary URL (and another port of this machine) still goes in.
import assert from 'node:assert/strict';
import os from 'node:os';
import { describe, it } from 'node:test';
import { Importer, type ImportProblem } from '../../src/import/importer.js';
import type { SourceRow } from '../../src/import/source-rows.js';
import { qs, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

type Response = { statusCode: number; headers: Record<string, unknown>; body: string; json(): any };

const MESSAGE = (field: string) => `The ${field} field must not point to a short link domain`;

/** The documented 422: `{message, code: E_VALIDATION_ERROR, errors: [{field, rule: notShortLink, message}]}` in JSON. */
function assertLoopRefused(res: Response, what: string, field = 'url') {
  assert.equal(res.statusCode, 422, `${what}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/, what);
  const body = res.json();
  assert.equal(body.code, 'E_VALIDATION_ERROR', what);
  assert.equal(body.message, MESSAGE(field), what);
  assert.deepEqual(body.errors, [{ field, rule: 'notShortLink', message: MESSAGE(field) }], what);
}

/** A non-internal IPv4 address of this machine, if it has one (reached when HOST is 0.0.0.0, the default). */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;

/** Every way into an app's stores of a destination, for one account. */
function writers(ctx: { readonly t: import('../support/app.js').TestApp }) {
  const v2 = (account: TestAccount | null, url: string) => ctx.t.app.inject({ url: `/v2/shorten?${qs({ url })}`, headers: account?.headers ?? {} });
  const v3 = (account: TestAccount | null, url: string) => ctx.t.app.inject({ url: `/v3/shorten?${qs({ url })}`, headers: account?.headers ?? {} });
  const bulk = (account: TestAccount, urls: string[]) =>
    ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: urls.map((url) => ({ url })) });
  const edit = (account: TestAccount, domain: string, slug: string, url: string) =>
    ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${encodeURIComponent(domain)}/${slug}`, headers: account.headers, payload: { url } });
  const domainSetting = (account: TestAccount, domain: string, field: string, url: string) =>
    ctx.t.app.inject({
      method: 'PATCH',
      url: `/v3/shorten/domains/${encodeURIComponent(domain)}`,
      headers: account.headers,
      payload: { [field]: url },
    });
  /** `brief import` as the CLI runs it, in this process: what each row was refused for (undefined: imported). */
  const importRows = async (account: TestAccount, urls: string[]) => {
    const importer = new Importer({
      accounts: ctx.t.accounts,
      domains: ctx.t.domains,
      blockedHosts: ctx.t.blocklist.hosts,
      changes: { announce: () => {} },
      store: ctx.t.database.imports,
      allowUrlCredentials: false,
    });
    async function* rows(): AsyncGenerator<SourceRow> {
      for (const [i, url] of urls.entries()) yield { where: `line ${i + 2}`, url, key: uniqueName('imp') };
    }
    const problems: ImportProblem[] = [];
    await importer.run(rows(), { source: 'csv', account: account.name, dryRun: false, onProblem: (p) => problems.push(p) });
    return urls.map((_, i) => problems.find((p) => p.where === `line ${i + 2}`)?.reason);
  };

  /** Asserts every writer refuses each URL, and that nothing of them was stored. */
  async function refusedEverywhere(account: TestAccount, urls: string[]) {
    const privateDomain = await ctx.t.privateDomain(account.id);
    const slug = uniqueName('edit');
    const made = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: 'https://example.com/before', slug })}`, headers: account.headers });
    assert.equal(made.statusCode, 200, made.body);
    const defaultHost = made.json().domain as string;
    for (const url of urls) {
      assertLoopRefused(await v2(null, url), `v2 anonymous ${url}`);
      assertLoopRefused(await v2(account, url), `v2 ${url}`);
      assertLoopRefused(await v3(account, url), `v3 ${url}`);
      assertLoopRefused(await edit(account, defaultHost, slug, url), `edit ${url}`);
      for (const field of ['homePageRedirectUrl', 'notFoundPageRedirectUrl']) {
        assertLoopRefused(await domainSetting(account, privateDomain, field, url), `${field} ${url}`, field);
      }
    }
    const items = await bulk(account, urls);
    assert.equal(items.statusCode, 200, items.body);
    assert.deepEqual(
      items.json(),
      urls.map((url) => ({ url: new URL(url).href, error: 'E_VALIDATION_ERROR', message: MESSAGE('url') })),
    );
    const imported = await importRows(account, urls);
    for (const [i, reason] of imported.entries()) assert.match(reason ?? 'imported', /^its URL points to a short link domain/, urls[i]);
    const listed = await ctx.t.app.inject({ url: '/v3/shorten/list?perPage=100', headers: account.headers });
    assert.deepEqual(
      listed.json().links.map((link: { originalUrl: string }) => link.originalUrl),
      ['https://example.com/before'],
      'nothing of them was stored',
    );
  }

  /** Asserts the URLs are taken everywhere a destination goes in. */
  async function acceptedEverywhere(account: TestAccount, urls: string[]) {
    for (const url of urls) {
      const made = await v2(account, url);
      assert.equal(made.statusCode, 200, `${url}: ${made.body}`);
      assert.equal((await v3(account, `${url}?v3`)).statusCode, 200, url);
    }
    const items = (
      await bulk(
        account,
        urls.map((url) => `${url}?bulk`),
      )
    ).json();
    assert.ok(
      items.every((item: { error?: string }) => item.error === undefined),
      JSON.stringify(items),
    );
    assert.deepEqual(
      await importRows(
        account,
        urls.map((url) => `${url}?import`),
      ),
      urls.map(() => undefined),
    );
  }

  return { v2, refusedEverywhere, acceptedEverywhere };
}

for (const dialect of dialects) {
  describe(`no link to Brief itself: BASE_URL on localhost (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BASE_URL: 'http://localhost:3000', PORT: '3000' });
    const { refusedEverywhere, acceptedEverywhere } = writers(ctx);

    it('refuses the instance by another address, a trailing dot, upper case, IPv6 loopback, anywhere a destination is stored', async () => {
      const account = await ctx.t.account('self');
      await refusedEverywhere(account, [
        'http://127.0.0.1:3000/x',
        'http://localhost.:3000/x',
        'http://LOCALHOST:3000/x',
        'HTTP://LocalHost.:3000/x',
        'http://[::1]:3000/x',
        'http://[0:0:0:0:0:0:0:1]:3000/x',
        'http://[::ffff:127.0.0.1]:3000/x',
        'http://2130706433:3000/x',
        'http://0x7f.1:3000/x',
        'http://127.0.0.1.:3000/x',
        'http://app.localhost:3000/x',
        'http://0.0.0.0:3000/x',
        `http://${os.hostname()}:3000/x`,
        ...(lanAddress === undefined ? [] : [`http://${lanAddress}:3000/x`]),
      ]);
    });

    it("refuses a private domain's host with a trailing dot or in upper case, and another account's verified one", async () => {
      const account = await ctx.t.account('own');
      const other = await ctx.t.account('other');
      const mine = await ctx.t.privateDomain(account.id);
      const theirs = await ctx.t.privateDomain(other.id);
      await refusedEverywhere(account, [`https://${mine}./x`, `https://${mine.toUpperCase()}../x`, `http://${theirs}.:8080/x`]);
    });

    it('still takes an ordinary URL, and this machine on another port', async () => {
      const account = await ctx.t.account('fine');
      await acceptedEverywhere(account, [
        `https://example.com/${uniqueName('x')}`,
        `http://localhost:3001/${uniqueName('x')}`,
        `http://127.0.0.1:8080/${uniqueName('x')}`,
        `https://[::1]/${uniqueName('x')}`,
        `http://localhost.example.com:3000/${uniqueName('x')}`,
      ]);
    });
  });

  describe(`no link to Brief itself: BASE_URL on 127.0.0.1 (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BASE_URL: 'http://127.0.0.1:3000', PORT: '3000' });
    const { refusedEverywhere } = writers(ctx);

    it('refuses localhost for 127.0.0.1', async () => {
      await refusedEverywhere(await ctx.t.account('self'), ['http://localhost:3000/x', 'http://localhost.:3000/x', 'http://127.0.0.1.:3000/x']);
    });
  });

  describe(`no link to Brief itself: on port 80 behind a proxy (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BASE_URL: 'https://brief.example', PORT: '80' });
    const { refusedEverywhere, acceptedEverywhere } = writers(ctx);

    it('refuses the default port written out or left out, and the domain on any port', async () => {
      await refusedEverywhere(await ctx.t.account('self'), [
        'http://127.0.0.1/x',
        'http://127.0.0.1:80/x',
        'http://[::1]:80/x',
        'https://brief.example:443/x',
        'https://BRIEF.EXAMPLE./x',
        'http://brief.example.:8080/x',
      ]);
    });

    it('takes https on loopback, which is port 443, another server', async () => {
      await acceptedEverywhere(await ctx.t.account('fine'), [`https://127.0.0.1/${uniqueName('x')}`]);
    });
  });

  describe(`no link to Brief itself: STRICT_HOSTS=on (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BASE_URL: 'http://localhost:3000', PORT: '3000', STRICT_HOSTS: 'on' });
    const { v2 } = writers(ctx);

    it('refuses the domains however written, and takes another address, which this server does not serve', async () => {
      const account = await ctx.t.account('strict');
      for (const url of ['http://localhost.:3000/x', 'http://LOCALHOST:3000/y']) assertLoopRefused(await v2(account, url), url);
      const made = await v2(account, 'http://127.0.0.1:3000/loop');
      assert.equal(made.statusCode, 200, made.body);
      const key = new URL(made.json().shortened).pathname;
      // No loop: with STRICT_HOSTS on, that Host is no domain and its paths answer 404.
      const followed = await ctx.t.app.inject({ url: key, headers: { host: '127.0.0.1:3000' } });
      assert.equal(followed.statusCode, 404);
    });
  });
}
