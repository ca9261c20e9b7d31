// A link's card for preview fetchers through the whole app (issue 40, decision 0041), on both dialects: each app's
// fetcher gets a 200 page with the tags it reads (og:*, twitter:*), escaped, under the strict CSP of Brief's pages, never
// kept by a cache; people, search engines, other bots and curl get the redirect, marked as depending on the User-Agent;
// a link without a card answers fetchers as before; a fetch is a bot's visit (analytics' bots, never a person's click,
// never against a visit limit); expired, spent and protected links answer fetchers as they answer everyone; both doors.
import assert from 'node:assert/strict';
import http from 'node:http';
import type net from 'node:net';
import { describe, it } from 'node:test';
import { BASE_HOST, BASE_PREFIX, buildTestApp, PUBLIC_HOST, qs, type TestAccount, useTestApp } from '../../support/app.js';
import { dialects } from '../../support/database.js';
import { CHROME, CURL, GOOGLEBOT, OTHER_BOT_AGENTS, PEOPLE_AGENTS, PREVIEW_FETCHER_AGENTS } from '../../support/preview-fetchers.js';
import { awayFromBoundary } from '../../support/time.js';

const CARD = { title: 'Spring sale', description: 'Until Sunday, everywhere.', image: 'https://img.example.com/sale.jpg' };
const SLACK = PREVIEW_FETCHER_AGENTS[0]![1];
let counter = 0;
const fresh = () => `https://example.com/carded/${Date.now()}-${++counter}`;

/** The page's meta tags by their property or name, as a parser reads them (entities decoded). */
function metaOf(html: string): Map<string, string> {
  const decode = (text: string) =>
    text.replace(/&(amp|lt|gt|quot|#39);/g, (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[entity]!);
  const tags = new Map<string, string>();
  for (const [, key, value] of html.matchAll(/<meta (?:property|name|http-equiv)="([^"]+)" content="([^"]*)">/g)) {
    assert.ok(!tags.has(key!), `${key} once`);
    tags.set(key!, decode(value!));
  }
  return tags;
}

/** What every fetcher reads of a card with all three parts. */
const expectedTags = (shortUrl: string, destination: string) =>
  new Map([
    ['viewport', 'width=device-width,initial-scale=1'],
    ['color-scheme', 'light dark'],
    ['robots', 'noindex'],
    ['og:title', CARD.title],
    ['og:description', CARD.description],
    ['og:image', CARD.image],
    ['og:url', shortUrl],
    ['og:type', 'website'],
    ['description', CARD.description],
    ['twitter:card', 'summary_large_image'],
    ['twitter:title', CARD.title],
    ['twitter:description', CARD.description],
    ['twitter:image', CARD.image],
    ['refresh', `0;url=${destination}`],
  ]);

/** A request through the real server: the node:http fast path answers what it can, the router the rest. */
async function overHttp(app: { server: http.Server; listen(o: object): Promise<unknown> }, path: string, userAgent: string, method = 'GET') {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path, method, headers: { host: BASE_HOST, 'user-agent': userAgent }, agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      })
      .on('error', reject)
      .end();
  });
}

for (const dialect of dialects) {
  describe(`link cards for preview fetchers (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const make = async (account: TestAccount, item: Record<string, unknown>) => {
      const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: [item] });
      assert.equal(res.statusCode, 200, res.body);
      return res.json()[0] as { slug: string; url: string };
    };
    const visit = async (path: string, userAgent: string, method: 'GET' | 'HEAD' = 'GET') => {
      const res = await ctx.t.app.inject({ method, url: path, headers: { host: BASE_HOST, 'user-agent': userAgent } });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    };

    it("answers each app's fetcher 200 with the card's tags, on both doors", async () => {
      const account = await ctx.t.account('card-fetchers');
      const link = await make(account, { url: fresh(), preview: CARD });
      const shortUrl = `${BASE_PREFIX}/${link.slug}`;
      for (const [app, agent] of PREVIEW_FETCHER_AGENTS) {
        for (const [door, answer, destination] of [
          ['router', await visit(`/${link.slug}?utm_source=chat`, agent), `${link.url}?utm_source=chat`],
          ['fast path', await overHttp(ctx.t.app, `/${link.slug}`, agent), link.url],
        ] as const) {
          assert.equal(answer.status, 200, `${app} (${door})`);
          assert.equal(answer.headers['content-type'], 'text/html; charset=utf-8', app);
          assert.equal(answer.headers.location, undefined, app);
          assert.equal(answer.headers['cache-control'], 'private, no-store', app);
          assert.equal(answer.headers.vary, 'User-Agent', app);
          assert.match(String(answer.headers['content-security-policy']), /^default-src 'none'; style-src 'sha256-[^']+'; base-uri 'none'/, app);
          assert.doesNotMatch(answer.body, /<script/i, app);
          assert.deepEqual(metaOf(answer.body), expectedTags(shortUrl, destination), `${app} (${door})`);
          assert.match(answer.body, new RegExp(`<title>${CARD.title}</title>`), app);
          assert.ok(answer.body.includes(`<a href="${destination}">Continue to example.com</a>`), app);
          assert.equal(Number(answer.headers['content-length']), Buffer.byteLength(answer.body), app);
        }
      }
    });

    it('names the short URL on its own domain as og:url (a public domain: https)', async () => {
      const account = await ctx.t.account('card-domain');
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        headers: account.headers,
        payload: [{ url: fresh(), domain: PUBLIC_HOST, preview: CARD }],
      });
      const { slug } = res.json()[0] as { slug: string };
      const answer = await ctx.t.app.inject({ url: `/${slug}`, headers: { host: PUBLIC_HOST, 'user-agent': SLACK } });
      assert.equal(answer.statusCode, 200);
      assert.equal(metaOf(answer.body).get('og:url'), `https://${PUBLIC_HOST}/${slug}`);
    });

    it('gives people, search engines, other bots and curl the redirect, marked as depending on the User-Agent', async () => {
      const account = await ctx.t.account('card-people');
      const link = await make(account, { url: fresh(), preview: CARD });
      for (const agent of [...PEOPLE_AGENTS, ...OTHER_BOT_AGENTS]) {
        for (const answer of [await visit(`/${link.slug}`, agent), await overHttp(ctx.t.app, `/${link.slug}`, agent)]) {
          assert.equal(answer.status, ctx.t.config.redirectStatus, agent);
          assert.equal(answer.headers.location, link.url, agent);
          assert.equal(answer.headers['cache-control'], 'private, max-age=90', agent);
          assert.equal(answer.headers.vary, 'User-Agent', agent);
        }
      }
      const query = await visit(`/${link.slug}?a=1`, CHROME);
      assert.equal(query.headers.location, `${link.url}?a=1`);
      assert.equal(query.headers.vary, 'User-Agent');
      const none = await ctx.t.app.inject({ url: `/${link.slug}`, headers: { host: BASE_HOST } });
      assert.equal(none.statusCode, ctx.t.config.redirectStatus, 'no User-Agent at all: the redirect');
    });

    it('gives fetchers the redirect of a link without a card, as before (no Vary)', async () => {
      const account = await ctx.t.account('card-none');
      const link = await make(account, { url: fresh() });
      for (const [app, agent] of PREVIEW_FETCHER_AGENTS) {
        const answer = await visit(`/${link.slug}`, agent);
        assert.equal(answer.status, ctx.t.config.redirectStatus, app);
        assert.equal(answer.headers.location, link.url, app);
        assert.equal(answer.headers.vary, undefined, app);
      }
      const removed = await make(account, { url: fresh(), preview: CARD });
      const patch = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/${BASE_HOST}/${removed.slug}`,
        headers: account.headers,
        payload: { preview: null },
      });
      assert.equal(patch.statusCode, 200, patch.body);
      assert.equal((await visit(`/${removed.slug}`, SLACK)).status, ctx.t.config.redirectStatus, 'a card removed: the redirect at once');
    });

    it('answers a new card at once after PATCH, on every door', async () => {
      const account = await ctx.t.account('card-edit');
      const link = await make(account, { url: fresh(), preview: CARD });
      assert.equal((await overHttp(ctx.t.app, `/${link.slug}`, SLACK)).status, 200);
      const patch = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/${BASE_HOST}/${link.slug}`,
        headers: account.headers,
        payload: { preview: { title: 'Summer sale' } },
      });
      assert.equal(patch.statusCode, 200, patch.body);
      const answer = await overHttp(ctx.t.app, `/${link.slug}`, SLACK);
      const tags = metaOf(answer.body);
      assert.equal(tags.get('og:title'), 'Summer sale');
      assert.equal(tags.get('twitter:card'), 'summary', 'no image: the small card');
      for (const gone of ['og:description', 'og:image', 'twitter:description', 'twitter:image', 'description'])
        assert.equal(tags.has(gone), false, gone);
    });

    it('escapes hostile titles, descriptions and images', async () => {
      const account = await ctx.t.account('card-hostile');
      const hostile = {
        title: `"><script>alert(1)</script> Tom & Jerry's <b>`,
        description: `'"></title><img src=x onerror=alert(2)> & more`,
        image: `https://img.example.com/a.jpg?x="><script>alert(3)</script>&y='1'`,
      };
      const link = await make(account, { url: `https://example.com/land?a=1&b="2"`, preview: hostile });
      const answer = await visit(`/${link.slug}`, SLACK);
      assert.equal(answer.status, 200);
      assert.doesNotMatch(answer.body, /<script|<img|<b>|onerror=alert\(2\)>/);
      assert.match(answer.body, /&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt; Tom &amp; Jerry&#39;s &lt;b&gt;/);
      const tags = metaOf(answer.body);
      assert.equal(tags.get('og:title'), hostile.title, 'read back exactly, once decoded');
      assert.equal(tags.get('og:description'), hostile.description);
      const stored = (await ctx.t.app.inject({ url: `/v3/shorten/${BASE_HOST}/${link.slug}`, headers: account.headers })).json();
      assert.equal(tags.get('og:image'), stored.preview.image, 'the image as stored (normalized)');
      assert.equal(tags.get('refresh'), `0;url=${link.url}`);
      // Every quote in an attribute is the one that closes it: nothing breaks out of a tag.
      for (const tag of answer.body.match(/<meta [^>]*>/g) ?? []) assert.match(tag, /^<meta (?:[a-z-]+="[^"<>]*" ?)+>$/, tag);
    });

    it('answers HEAD from a fetcher with the card’s headers and no body, and from a person with the redirect', async () => {
      const account = await ctx.t.account('card-head');
      const link = await make(account, { url: fresh(), preview: CARD });
      const fetcher = await visit(`/${link.slug}`, SLACK, 'HEAD');
      assert.equal(fetcher.status, 200);
      assert.equal(fetcher.body, '');
      assert.equal(fetcher.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(fetcher.headers.vary, 'User-Agent');
      const fast = await overHttp(ctx.t.app, `/${link.slug}`, SLACK, 'HEAD');
      assert.equal(fast.status, 200);
      assert.equal(fast.body, '');
      const person = await visit(`/${link.slug}`, CHROME, 'HEAD');
      assert.equal(person.status, ctx.t.config.redirectStatus);
      assert.equal(person.headers.location, link.url);
    });

    it('shows no card of an expired, spent or protected link: fetchers get what everyone gets', async () => {
      const account = await ctx.t.account('card-gates');
      const expiring = await make(account, { url: fresh(), preview: CARD, expiredAt: new Date(Date.now() + 1500).toISOString() });
      assert.equal((await visit(`/${expiring.slug}`, SLACK)).status, 200, 'a card until it expires');
      await new Promise((resolve) => setTimeout(resolve, 1600));
      const expired = await visit(`/${expiring.slug}`, SLACK);
      assert.equal(expired.status, 410);
      assert.match(expired.body, /expired/);
      assert.doesNotMatch(expired.body, /Spring sale/);

      const limited = await make(account, { url: fresh(), preview: CARD, maxVisits: 1 });
      for (let i = 0; i < 3; i++) assert.equal((await visit(`/${limited.slug}`, SLACK)).status, 200, 'a fetch is not counted against the limit');
      assert.equal((await visit(`/${limited.slug}`, CHROME)).status, 302, 'the one visit of a person');
      const spent = await visit(`/${limited.slug}`, SLACK);
      assert.equal(spent.status, 410);
      assert.doesNotMatch(spent.body, /Spring sale/);

      const protectedLink = await make(account, { url: fresh(), preview: CARD, password: 'sesame-1' });
      for (const answer of [await visit(`/${protectedLink.slug}`, SLACK), await overHttp(ctx.t.app, `/${protectedLink.slug}`, SLACK)]) {
        assert.equal(answer.status, 200);
        assert.match(answer.body, /Password required/);
        assert.doesNotMatch(answer.body, /Spring sale|og:|example\.com\/carded/, 'neither the card nor the destination');
      }
      const unlock = await ctx.t.app.inject({
        method: 'POST',
        url: `/${protectedLink.slug}`,
        headers: { host: BASE_HOST, 'user-agent': SLACK, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'password=sesame-1',
      });
      assert.equal(unlock.statusCode, 303, 'the right password goes on to the destination, whoever sends it');
      assert.equal(unlock.headers.location, protectedLink.url);
    });

    it('leads a fetcher of a link with rules where a bot is sent', async () => {
      const account = await ctx.t.account('card-rules');
      const link = await make(account, {
        url: fresh(),
        preview: CARD,
        rules: [{ url: 'https://example.com/bots-and-phones', conditions: [{ type: 'device', value: 'bot' }] }],
      });
      const answer = await visit(`/${link.slug}`, SLACK);
      assert.equal(answer.status, 200);
      assert.equal(metaOf(answer.body).get('refresh'), '0;url=https://example.com/bots-and-phones');
      const person = await visit(`/${link.slug}`, CHROME);
      assert.equal(person.status, 302);
      assert.equal(person.headers.location, link.url);
      assert.equal(person.headers['cache-control'], 'private, no-store');
      assert.equal(person.headers.vary, 'User-Agent');
    });

    it('counts a fetch as a bot’s visit: in the bots and the link’s clicks, never among people’s clicks', async () => {
      const owner = await ctx.t.account('card-analytics');
      const link = await make(owner, { url: fresh(), preview: CARD });
      await awayFromBoundary();
      const visitor = await buildTestApp(ctx.t.database, { CLICK_FLUSH_MS: '600000' });
      const fetch = async (agent: string) =>
        (await visitor.app.inject({ url: `/${link.slug}`, headers: { host: BASE_HOST, 'user-agent': agent } })).statusCode;
      const [slack, whatsapp, x] = [SLACK, PREVIEW_FETCHER_AGENTS[6]![1], PREVIEW_FETCHER_AGENTS[4]![1]];
      for (const agent of [slack, slack, whatsapp, x]) assert.equal(await fetch(agent), 200);
      assert.equal(await fetch(GOOGLEBOT), 301);
      assert.equal(await fetch(CURL), 301);
      assert.equal(await fetch(CHROME), 301);
      await visitor.close(); // writes the clicks and the events

      const target = `${BASE_HOST}/${link.slug}`;
      const analytics = async (path: string, more: Record<string, string> = {}) => {
        const query = qs({ link: target, range: '1d', ...more });
        const res = await ctx.t.app.inject({ url: `/v3/shorten/analytics/${path}?${query}`, headers: owner.headers });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().data as Array<{ label?: string; click: number }>;
      };
      const bots = new Map((await analytics('top-bots')).map((entry) => [entry.label, entry.click]));
      assert.deepEqual(
        bots,
        new Map([
          ['Slackbot-LinkExpanding', 2],
          ['WhatsApp', 1],
          ['Twitterbot', 1],
          ['Googlebot', 1],
          ['curl', 1],
        ]),
      );
      const people = (await analytics('clicks', { granularity: 'hour' })).reduce((sum, entry) => sum + entry.click, 0);
      assert.equal(people, 1, 'the one person');
      const got = await ctx.t.app.inject({ url: `/v3/shorten/${target}`, headers: owner.headers });
      assert.equal(got.json().statsClicks, 7, 'the link’s clicks count every GET, bots too, as ever');
    });
  });
}

describe('link cards and REDIRECT_STATUS', () => {
  for (const [status, cacheControl] of [
    ['302', 'no-store'],
    ['308', 'private, max-age=90'],
  ] as const) {
    const ctx = useTestApp(dialects[0]!, { REDIRECT_STATUS: status });
    it(`keeps REDIRECT_STATUS=${status} for people, with Vary, and the card for fetchers`, async () => {
      const account = await ctx.t.account(`card-status-${status}`);
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        headers: account.headers,
        payload: [{ url: fresh(), preview: CARD }],
      });
      const { slug } = res.json()[0] as { slug: string };
      const person = await ctx.t.app.inject({ url: `/${slug}`, headers: { host: BASE_HOST, 'user-agent': CHROME } });
      assert.equal(person.statusCode, Number(status));
      assert.equal(person.headers['cache-control'], cacheControl);
      assert.equal(person.headers.vary, 'User-Agent');
      const fetcher = await ctx.t.app.inject({ url: `/${slug}`, headers: { host: BASE_HOST, 'user-agent': SLACK } });
      assert.equal(fetcher.statusCode, 200);
      assert.equal(fetcher.headers['cache-control'], 'private, no-store');
    });
  }
});
