// Private domains claimed through the API (issue 31, decision 0019): a claim binds nobody but its
// owner and serves nothing until its control is proven by a DNS TXT record — checked against the
// tests' own DNS server on loopback, with Node's resolver pointed at it by DNS_SERVERS — or an
// administrator verifies it. At most DOMAINS_PER_ACCOUNT claims per account.
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { NOT_FOUND_PAGE } from '../../src/html/pages.js';
import { buildTestApp, eventually, qs, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.js';

type Response = { statusCode: number; headers: Record<string, unknown>; body: string; json(): any };

const dns: TestDnsServer = await startDnsServer();
after(() => dns.close());

const newHost = (prefix = 'claim') => `${uniqueName(prefix).toLowerCase()}.example`;
let counter = 0;
const freshUrl = (host = 'example.com') => `https://${host}/verification/${Date.now()}-${++counter}`;

function assertValidation(res: Response, field: string, rule: string, message: string | RegExp) {
  assert.equal(res.statusCode, 422, res.body);
  const body = res.json();
  assert.equal(body.code, 'E_VALIDATION_ERROR');
  assert.deepEqual(Object.keys(body.errors[0]).sort(), ['field', 'message', 'rule']);
  assert.equal(body.errors[0].field, field, res.body);
  assert.equal(body.errors[0].rule, rule, res.body);
  if (typeof message === 'string') assert.equal(body.message, message);
  else assert.match(body.message, message);
}

function assertNotFoundPage(res: { statusCode: number; body: string }, what: string) {
  assert.equal(res.statusCode, 404, what);
  assert.equal(res.body, NOT_FOUND_PAGE, what);
}

for (const dialect of dialects) {
  describe(`domain claims and their verification (${dialect})`, () => {
    // The app reads other instances' domain changes every 10 ms (TEST_ENV); its own at once.
    const ctx = useTestApp(dialect, { DNS_SERVERS: dns.address, DOMAINS_PER_ACCOUNT: '3' });

    const claim = (account: TestAccount, domain: string) =>
      ctx.t.app.inject({ method: 'PUT', url: '/v3/shorten/domains', headers: account.headers, payload: { domain } });
    const verify = (account: TestAccount | null, domain: string) =>
      ctx.t.app.inject({ method: 'POST', url: `/v3/shorten/domains/${encodeURIComponent(domain)}/verify`, headers: account?.headers ?? {} });
    const claimed = async (account: TestAccount, domain = newHost()) => {
      const res = await claim(account, domain);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().verified, false);
      return { domain, record: res.json().verification.record as string, value: res.json().verification.value as string };
    };
    const v2Shorten = (account: TestAccount | null, url: string) =>
      ctx.t.app.inject({ url: `/v2/shorten?${qs({ url })}`, headers: account?.headers ?? {} });
    const bulk = async (account: TestAccount, items: object[]) => {
      const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: items });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const visit = (host: string, path: string, method: 'GET' | 'HEAD' = 'GET') => ctx.t.app.inject({ method, url: path, headers: { host } });

    describe('a claim binds nobody but its owner', () => {
      let squatter: TestAccount;
      let victim: TestAccount;
      before(async () => {
        squatter = await ctx.t.account('squatter');
        victim = await ctx.t.account('victim');
        await claimed(squatter, 'github.com');
      });

      it('leaves every other account and anonymous callers free to shorten links to the host', async () => {
        const v2 = await v2Shorten(victim, 'https://github.com/brief/issues');
        assert.equal(v2.statusCode, 200, v2.body);
        assert.equal(v2.json().url, 'https://github.com/brief/issues');
        const anonymous = await v2Shorten(null, 'https://github.com/anonymous');
        assert.equal(anonymous.statusCode, 200, anonymous.body);
        const v3 = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: 'https://GitHub.com/v3' })}`, headers: victim.headers });
        assert.equal(v3.statusCode, 200, v3.body);
        const [item] = await bulk(victim, [{ url: 'https://github.com/bulk' }]);
        assert.equal(item.url, 'https://github.com/bulk', JSON.stringify(item));
      });

      it('leaves edits of links to the host, and other domains’ redirect settings, free', async () => {
        const [made] = await bulk(victim, [{ url: freshUrl() }]);
        const edit = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/${made.domain}/${made.slug}`,
          headers: victim.headers,
          payload: { url: 'https://github.com/edited' },
        });
        assert.equal(edit.statusCode, 200, edit.body);
        assert.equal(edit.json().originalUrl, 'https://github.com/edited');
        const own = await ctx.t.privateDomain(victim.id, 'victims');
        const settings = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/domains/${own}`,
          headers: victim.headers,
          payload: { homePageRedirectUrl: 'https://github.com/', notFoundPageRedirectUrl: 'https://github.com/404' },
        });
        assert.equal(settings.statusCode, 200, settings.body);
      });

      it('still refuses links to the claimed host to its owner (no loops through its own domain)', async () => {
        assertValidation(
          await v2Shorten(squatter, 'https://github.com/x'),
          'url',
          'notShortLink',
          'The url field must not point to a short link domain',
        );
      });

      it('binds everybody once verified', async () => {
        const bound = await claimed(squatter);
        assert.equal((await v2Shorten(victim, `https://${bound.domain}/x`)).statusCode, 200);
        assert.equal(await ctx.t.domains.verify(bound.domain), true);
        assert.ok(
          await eventually(async () => (await v2Shorten(victim, `https://${bound.domain}/y`)).statusCode === 422),
          'a verified domain is a short domain for everybody',
        );
        assertValidation(await v2Shorten(null, `https://${bound.domain}/z`), 'url', 'notShortLink', /must not point to a short link domain/);
      });
    });

    describe('an unverified domain', () => {
      it('takes its owner’s links and settings, serves none of them, and serves them all once verified', async () => {
        const owner = await ctx.t.account('early');
        const { domain, record, value } = await claimed(owner);
        const [live, locked] = await bulk(owner, [
          { url: freshUrl(), domain },
          { url: freshUrl(), domain, password: 'open sesame' },
        ]);
        assert.equal(live.shortLink, `https://${domain}/${live.slug}`);
        const settings = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/domains/${domain}`,
          headers: owner.headers,
          payload: { homePageRedirectUrl: 'https://example.com/home', notFoundPageRedirectUrl: 'https://example.com/lost' },
        });
        assert.equal(settings.statusCode, 200, settings.body);

        const unlock = () =>
          ctx.t.app.inject({
            method: 'POST',
            url: `/${locked.slug}`,
            headers: { host: domain, 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({ password: 'open sesame' }).toString(),
          });
        // Through the router (app.inject) …
        assertNotFoundPage(await visit(domain, `/${live.slug}`), 'a link');
        assertNotFoundPage(await visit(domain.toUpperCase(), `/${live.slug}`), 'a link, Host in capitals');
        assert.equal((await visit(domain, `/${live.slug}`, 'HEAD')).statusCode, 404);
        assertNotFoundPage(await visit(domain, `/${locked.slug}`), 'a protected link');
        assertNotFoundPage(await unlock(), 'the right password');
        // Until verified, the claim's Host is no domain: it answers as the default domain (decision 0015), whose `/` is
        // the web app, never the claim's home page redirect.
        const bare = await visit(domain, '/');
        assert.notEqual(bare.statusCode, 302, 'the home page redirect');
        assert.equal(bare.headers.location, undefined);
        assertNotFoundPage(await visit(domain, '/nosuchkey'), 'the not-found redirect');
        // … and through the node:http fast path.
        await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = ctx.t.app.server.address() as net.AddressInfo;
        const get = (path: string) =>
          new Promise<number>((resolve, reject) => {
            http
              .get({ host: '127.0.0.1', port, path, headers: { host: domain }, agent: false }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode!));
              })
              .on('error', reject);
          });
        assert.equal(await get(`/${live.slug}`), 404);
        assert.notEqual(await get('/'), 302);

        dns.txt.set(record, [[value]]);
        const verified = await verify(owner, domain);
        assert.equal(verified.statusCode, 200, verified.body);
        // At once on the instance that verified it.
        assert.equal(await get(`/${live.slug}`), 301);
        const redirect = await visit(domain, `/${live.slug}`);
        assert.equal(redirect.statusCode, 301);
        assert.equal(redirect.headers.location, live.url);
        assert.equal((await unlock()).statusCode, 303);
        assert.equal((await visit(domain, '/')).headers.location, 'https://example.com/home');
        assert.equal((await visit(domain, '/nosuchkey')).headers.location, 'https://example.com/lost');
      });

      it('serves its links within CHANGE_POLL_MS of an administrator’s verification', async () => {
        const owner = await ctx.t.account('admin-verified');
        const { domain } = await claimed(owner);
        const [made] = await bulk(owner, [{ url: freshUrl(), domain }]);
        assertNotFoundPage(await visit(domain, `/${made.slug}`), 'before');
        assert.equal(await ctx.t.domains.verify(domain.toUpperCase()), true);
        assert.ok(await eventually(async () => (await visit(domain, `/${made.slug}`)).statusCode === 301));
        assert.equal(await ctx.t.domains.verify(domain), false, 'verified already');
        const listed = (await ctx.t.app.inject({ url: '/v3/shorten/domains', headers: owner.headers })).json();
        assert.deepEqual(
          listed.find((d: any) => d.domain === domain),
          { domain, randomCodeLength: 7, isPrimary: false, isGlobal: false, verified: true },
        );
      });
    });

    describe('POST /v3/shorten/domains/{domain}/verify', () => {
      it('verifies by the TXT record alone: a missing, empty, wrong or unreadable one does not; the domain is never contacted', async () => {
        // The claimed domain is a port on loopback where a server counts connections: a check
        // that fetched anything from the domain (http or https) would show here.
        let connections = 0;
        const decoy = net.createServer((socket) => {
          connections++;
          socket.destroy();
        });
        await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
        try {
          const owner = await ctx.t.account('dns');
          const domain = `localhost:${(decoy.address() as net.AddressInfo).port}`;
          const { record, value } = await claimed(owner, domain);
          assert.equal(record, '_brief-verify.localhost', 'DNS knows no ports');
          const asked = dns.questions.length;
          const stored = () => ctx.t.database.domains.byHostname(domain);

          assertValidation(
            await verify(owner, domain),
            'domain',
            'verification',
            `The domain is not verified: there is no TXT record at ${record}; add one holding "${value}"`,
          );
          dns.txt.set(record, []); // the name exists, without TXT records
          assertValidation(await verify(owner, domain), 'domain', 'verification', /^The domain is not verified: there is no TXT record at/);
          dns.txt.set(record, [['brief-verify=someone-elses'], ['v=spf1 -all']]);
          assertValidation(
            await verify(owner, domain),
            'domain',
            'verification',
            `The domain is not verified: the TXT record at ${record} does not hold "${value}" (found 2 other values)`,
          );
          dns.txt.set(record, [[value.slice(0, -1)]]);
          assertValidation(await verify(owner, domain), 'domain', 'verification', /\(found 1 other value\)$/);
          dns.failing.add(record);
          assertValidation(
            await verify(owner, domain),
            'domain',
            'verification',
            `The domain is not verified: the DNS lookup of ${record} failed (ESERVFAIL); try again later`,
          );
          dns.failing.delete(record);
          assert.equal((await stored())?.verifiedAt, null, 'still unverified');

          // The value split in two strings of one record, beside another record: the strings are joined.
          dns.txt.set(record, [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]]);
          const res = await verify(owner, domain.toUpperCase());
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json(), { domain, randomCodeLength: 7, isPrimary: false, isGlobal: false, verified: true });
          assert.equal(typeof (await stored())?.verifiedAt, 'number');
          // Asked again, it stays verified without a lookup, even once the record is gone.
          dns.txt.delete(record);
          const before = dns.questions.length;
          assert.deepEqual((await verify(owner, domain)).json(), res.json());
          assert.equal(dns.questions.length, before);

          const questions = dns.questions.slice(asked);
          assert.ok(questions.length >= 6, JSON.stringify(questions));
          assert.deepEqual(new Set(questions.map((q) => `${q.type} ${q.name}`)), new Set([`TXT ${record}`]), 'only the TXT record was asked');
          assert.equal(connections, 0, 'nothing connected to the domain');
        } finally {
          await new Promise((resolve) => decoy.close(resolve));
        }
      });

      it('answers 404 for a domain that is not the caller’s claim, and 401 without a token', async () => {
        const owner = await ctx.t.account('notmine');
        const someone = await ctx.t.account('someone');
        const { domain, record, value } = await claimed(someone);
        dns.txt.set(record, [[value]]);
        for (const name of [domain, 'short.test', 'pub.test', newHost(), 'not a host']) {
          const res = await verify(owner, name);
          assert.equal(res.statusCode, 404, `${name}: ${res.body}`);
          assert.deepEqual(res.json(), { message: 'Domain not found', code: 'E_NOT_FOUND' });
        }
        assert.equal((await verify(null, domain)).statusCode, 401);
        assert.equal((await ctx.t.database.domains.byHostname(domain))?.verifiedAt, null, "another account cannot verify someone's claim");
      });
    });

    describe('DOMAINS_PER_ACCOUNT', () => {
      it('refuses a claim past the limit, racing claims included; the CLI is not limited', async () => {
        const account = await ctx.t.account('limited');
        const answers = await Promise.all(Array.from({ length: 6 }, () => claim(account, newHost('race'))));
        const added = answers.filter((res) => res.statusCode === 200);
        assert.equal(added.length, 3, answers.map((res) => res.body).join('\n'));
        for (const res of answers.filter((r) => r.statusCode !== 200)) {
          assertValidation(res, 'domain', 'limit', 'An account may have at most 3 domains; remove one first');
        }
        // An administrator may give an account more.
        await ctx.t.privateDomain(account.id, 'by-admin');
        assertValidation(await claim(account, newHost()), 'domain', 'limit', /at most 3 domains/);
        // Removing claims makes room again.
        for (const res of added.slice(0, 2)) {
          const removed = await ctx.t.app.inject({ method: 'DELETE', url: `/v3/shorten/domains/${res.json().domain}`, headers: account.headers });
          assert.equal(removed.statusCode, 200, removed.body);
        }
        assert.equal((await claim(account, newHost())).statusCode, 200);
        assertValidation(await claim(account, newHost()), 'domain', 'limit', /at most 3 domains/);
      });

      it('with 0, lets no account claim a domain', async () => {
        const closed = await buildTestApp(ctx.t.database, { DOMAINS_PER_ACCOUNT: '0' });
        try {
          const account = await ctx.t.account('closed');
          const res = await closed.app.inject({
            method: 'PUT',
            url: '/v3/shorten/domains',
            headers: account.headers,
            payload: { domain: newHost() },
          });
          assertValidation(res, 'domain', 'limit', 'Accounts cannot add domains on this server; ask its administrator');
        } finally {
          await closed.close();
        }
      });
    });
  });
}
