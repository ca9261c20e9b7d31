// POST /v3/shorten/{domain}/{slug}/evaluate (issue 39, decision 0039): where the redirect would send a visit like
// the one described, by the redirect's own steps, without counting a visit; another account's link is not found.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BASE_HOST, eventually, type TestAccount, type TestApp, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

let counter = 0;
const fresh = () => `https://example.com/evaluated/${Date.now()}-${++counter}`;

const RULES = [
  { url: 'https://example.com/robots', conditions: [{ type: 'device', value: 'bot' }] },
  { url: 'https://example.com/news?from=rule', conditions: [{ type: 'query', key: 'utm_source', value: 'news' }] },
];
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

async function make(t: TestApp, account: TestAccount, item: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: [item] });
  assert.equal(res.statusCode, 200, res.body);
  return res.json()[0] as { slug: string; url: string };
}

for (const dialect of dialects) {
  describe(`evaluate a visit (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const evaluate = (account: TestAccount, slug: string, payload: Record<string, unknown>) =>
      ctx.t.app.inject({ method: 'POST', url: `/v3/shorten/${BASE_HOST}/${slug}/evaluate`, headers: account.headers, payload });

    it('answers the rule a visit matches and where it goes, its query forwarded', async () => {
      const account = await ctx.t.account('eval');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      const news = await evaluate(account, link.slug, { query: 'utm_source=news' });
      assert.equal(news.statusCode, 200, news.body);
      assert.deepEqual(news.json(), { url: 'https://example.com/news?from=rule&utm_source=news', rule: 1 });
      const crawler = await evaluate(account, link.slug, { userAgent: CRAWLER, query: 'utm_source=news' });
      assert.deepEqual(crawler.json(), { url: 'https://example.com/robots?utm_source=news', rule: 0 }, 'the first rule that matches');
    });

    it('answers the link’s own url and rule null when no rule matches, or the link has none', async () => {
      const account = await ctx.t.account('eval');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      assert.deepEqual((await evaluate(account, link.slug, {})).json(), { url: link.url, rule: null });
      assert.deepEqual((await evaluate(account, link.slug, { query: 'utm_source=mail', at: '2020-01-01T00:00:00Z' })).json(), {
        url: `${link.url}?utm_source=mail`,
        rule: null,
      });
      const plain = await make(ctx.t, account, { url: fresh(), forwardQuery: false });
      assert.deepEqual((await evaluate(account, plain.slug, { query: 'x=1' })).json(), { url: plain.url, rule: null });
    });

    it('answers a split’s first target, as a bot is sent (the evaluation keeps no cookie)', async () => {
      const account = await ctx.t.account('eval');
      const split = [
        { url: 'https://example.com/a', weight: 10 },
        { url: 'https://example.com/b', weight: 90 },
      ];
      const link = await make(ctx.t, account, { url: fresh(), rules: [{ split, conditions: [{ type: 'query-any', key: 'ab' }] }] });
      assert.deepEqual((await evaluate(account, link.slug, { query: 'ab=1' })).json(), { url: 'https://example.com/a?ab=1', rule: 0 });
    });

    it('counts no visit', async () => {
      const account = await ctx.t.account('eval');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      for (let i = 0; i < 3; i++) assert.equal((await evaluate(account, link.slug, { query: 'utm_source=news' })).statusCode, 200);
      // One real visit after them: once it is counted, anything the evaluations counted would be too.
      assert.equal((await ctx.t.app.inject({ url: `/${link.slug}`, headers: { host: BASE_HOST } })).statusCode, 302);
      const clicks = async () =>
        (await ctx.t.app.inject({ url: `/v3/shorten/${BASE_HOST}/${link.slug}`, headers: account.headers })).json().statsClicks as number;
      assert.ok(await eventually(async () => (await clicks()) > 0));
      assert.equal(await clicks(), 1);
    });

    it('answers 404 for another account’s link and an unknown one, 401 without a token', async () => {
      const owner = await ctx.t.account('eval');
      const stranger = await ctx.t.account('eval');
      const link = await make(ctx.t, owner, { url: fresh(), rules: RULES });
      const theirs = await evaluate(stranger, link.slug, {});
      assert.equal(theirs.statusCode, 404, theirs.body);
      assert.equal(theirs.json().code, 'E_NOT_FOUND');
      assert.equal((await evaluate(owner, 'nosuchlink', {})).statusCode, 404);
      const anonymous = await ctx.t.app.inject({ method: 'POST', url: `/v3/shorten/${BASE_HOST}/${link.slug}/evaluate`, payload: {} });
      assert.equal(anonymous.statusCode, 401, anonymous.body);
    });

    it('refuses an ip that is no address and an at that is no instant, naming the field', async () => {
      const account = await ctx.t.account('eval');
      const link = await make(ctx.t, account, { url: fresh(), rules: RULES });
      for (const [payload, field] of [
        [{ ip: 'not-an-ip' }, 'ip'],
        [{ at: 'tomorrow' }, 'at'],
        [{ at: '2027-02-30T09:00:00Z' }, 'at'],
        [{ query: ['a', 'b'] }, 'query'],
      ] as const) {
        const res = await evaluate(account, link.slug, payload);
        assert.equal(res.statusCode, 422, `${JSON.stringify(payload)}: ${res.body}`);
        assert.equal(res.json().errors[0].field, field);
      }
      assert.equal((await evaluate(account, link.slug, { ip: '2001:db8::1' })).statusCode, 200);
    });
  });
}
