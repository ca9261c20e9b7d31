// Issue 31 item 7 (decision 0017): a destination with a user name or password is refused on
// every way of making or editing a link (and as a domain's redirect) unless ALLOW_URL_CREDENTIALS=on, and an expiredAt that
// names no real moment (2027-02-30, 24:00) is refused instead of rolled over.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { BASE_HOST, qs, type TestAccount, type TestApp, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

let counter = 0;
const freshUrl = () => `https://example.com/fields/${Date.now()}-${++counter}`;
const WITH_CREDENTIALS = ['https://user:pass@example.com/secret', 'https://user@example.com/', 'http://:pass@example.com/'];
const CREDENTIALS_MESSAGE =
  'The url field must not contain a user name or password (https://user:pass@host/): everyone who has the short link would see them';

/** Every way of making a link or changing its destination, answering the raw response. */
function ways(app: () => TestApp, account: () => TestAccount) {
  const inject = (options: InjectOptions) => app().app.inject({ ...options, headers: account().headers });
  return {
    v2: (url: string) => inject({ url: `/v2/shorten?${qs({ url })}` }),
    v3: (url: string) => inject({ url: `/v3/shorten?${qs({ url })}` }),
    bulk: (url: string) => inject({ method: 'POST', url: '/v3/shorten/bulk', payload: [{ url }] }),
    edit: async (url: string) => {
      const made = await inject({ method: 'POST', url: '/v3/shorten/bulk', payload: [{ url: freshUrl() }] });
      const [link] = made.json();
      return inject({ method: 'PATCH', url: `/v3/shorten/${link.domain}/${link.slug}`, payload: { url } });
    },
  };
}

for (const dialect of dialects) {
  describe(`URL credentials, refused by default (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let account: TestAccount;

    it('refuses a destination with a user name or password on v2, v3, bulk and edit, naming url', async () => {
      account = await ctx.t.account();
      for (const [way, send] of Object.entries(
        ways(
          () => ctx.t,
          () => account,
        ),
      )) {
        for (const url of WITH_CREDENTIALS) {
          const res = await send(url);
          assert.equal(res.statusCode, 422, `${way} ${url}: ${res.body}`);
          const field = way === 'bulk' ? '0.url' : 'url';
          const message = way === 'bulk' ? CREDENTIALS_MESSAGE.replace('The url', 'The 0.url') : CREDENTIALS_MESSAGE;
          assert.deepEqual(res.json(), { message, code: 'E_VALIDATION_ERROR', errors: [{ field, rule: 'credentials', message }] }, way);
        }
      }
      const listed = (await ctx.t.app.inject({ url: '/v3/shorten/list?perPage=500', headers: account.headers })).json().links;
      assert.equal(listed.length, WITH_CREDENTIALS.length, 'only the links made to be edited exist');
      for (const link of listed) assert.doesNotMatch(link.originalUrl, /@/, 'no edit went through');
    });

    it("refuses them as a domain's home and not-found redirects, naming the setting", async () => {
      account = await ctx.t.account();
      const domain = await ctx.t.privateDomain(account.id);
      for (const field of ['homePageRedirectUrl', 'notFoundPageRedirectUrl']) {
        const res = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/domains/${domain}`,
          headers: account.headers,
          payload: { [field]: WITH_CREDENTIALS[0] },
        });
        assert.equal(res.statusCode, 422, res.body);
        const message = CREDENTIALS_MESSAGE.replace('The url', `The ${field}`);
        assert.deepEqual(res.json().errors, [{ field, rule: 'credentials', message }]);
      }
      const stored = await ctx.t.database.domains.byHostname(domain);
      assert.deepEqual([stored?.homeRedirectUrl, stored?.notFoundRedirectUrl], [null, null]);
    });

    it('still takes an @ where it is not userinfo', async () => {
      account = await ctx.t.account();
      const { v2, bulk, edit } = ways(
        () => ctx.t,
        () => account,
      );
      for (const url of ['https://example.com/@someone', 'https://example.com/?to=a@b.example', 'https://@example.com/empty']) {
        for (const send of [v2, bulk, edit]) assert.equal((await send(url)).statusCode, 200, url);
      }
    });
  });

  describe(`URL credentials with ALLOW_URL_CREDENTIALS=on (${dialect})`, () => {
    const ctx = useTestApp(dialect, { ALLOW_URL_CREDENTIALS: 'on' });

    it('makes and edits links to them, and redirects there', async () => {
      const account = await ctx.t.account();
      const { v2, v3, bulk, edit } = ways(
        () => ctx.t,
        () => account,
      );
      for (const send of [v3, bulk, edit]) assert.equal((await send(WITH_CREDENTIALS[0]!)).statusCode, 200);
      const domain = await ctx.t.privateDomain(account.id);
      const settings = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/domains/${domain}`,
        headers: account.headers,
        payload: { homePageRedirectUrl: WITH_CREDENTIALS[0] },
      });
      assert.equal(settings.statusCode, 200, settings.body);
      const made = await v2(WITH_CREDENTIALS[1]!);
      assert.equal(made.statusCode, 200, made.body);
      const visit = await ctx.t.app.inject({ url: `/${made.json().code}`, headers: { host: BASE_HOST } });
      assert.equal(visit.headers.location, WITH_CREDENTIALS[1]);
    });
  });

  describe(`expiredAt dates that do not exist (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const IMPOSSIBLE = [
      '2027-02-30T00:00:00Z',
      '2027-02-29T12:00:00Z',
      '2100-02-29T00:00:00Z',
      '2027-04-31T00:00:00Z',
      '2027-01-01T24:00:00Z',
      '2027-01-01T12:00:00+24:00',
    ];

    it('refuses them on bulk and edit, naming the field, and stores nothing', async () => {
      const account = await ctx.t.account();
      const made = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: [{ url: freshUrl() }] });
      const [link] = made.json();
      for (const expiredAt of IMPOSSIBLE) {
        const bulk = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: account.headers,
          payload: [{ url: freshUrl(), expiredAt }],
        });
        assert.equal(bulk.statusCode, 422, `${expiredAt}: ${bulk.body}`);
        assert.deepEqual(
          bulk.json().errors.map((e: { field: string; rule: string }) => [e.field, e.rule]),
          [['0.expiredAt', 'calendar']],
        );
        assert.match(bulk.json().message, /^The 0\.expiredAt field must be a date and time that exist/);
        const edit = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/${link.domain}/${link.slug}`,
          headers: account.headers,
          payload: { expiredAt },
        });
        assert.equal(edit.statusCode, 422, `${expiredAt}: ${edit.body}`);
        assert.deepEqual(
          edit.json().errors.map((e: { field: string; rule: string }) => [e.field, e.rule]),
          [['expiredAt', 'calendar']],
        );
      }
      const listed = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: account.headers })).json();
      assert.equal(listed.metadata.total, 1);
      assert.equal(listed.links[0].expiresAt, null, 'no edit set an expiry');
      // The day after, and a leap day, are taken.
      for (const expiredAt of ['2027-03-02T00:00:00Z', '2028-02-29T00:00:00Z']) {
        const edit = await ctx.t.app.inject({
          method: 'PATCH',
          url: `/v3/shorten/${link.domain}/${link.slug}`,
          headers: account.headers,
          payload: { expiredAt },
        });
        assert.equal(edit.json().expiresAt, expiredAt.replace('Z', '.000Z'));
      }
    });
  });
}
