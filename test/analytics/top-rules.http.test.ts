// Analytics by redirect rule (issue 39, decision 0039 "What a visit took"): real redirects of a link with rules (a rule
// matching a query parameter, a 50/50 split, no match) are stored with what each took, and
// GET /v3/shorten/analytics/top-rules counts them for one link, with the url each label names in the link's rules now;
// bots and opted-out visits are left out; `link` is required; another workspace's link is not found.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EditBody } from '../../src/links/v3-schemas.js';
import { BASE_HOST, buildTestApp, qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { awayFromBoundary } from '../support/time.js';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const RULES: NonNullable<EditBody['rules']> = [
  { url: 'https://example.com/news', conditions: [{ type: 'query', key: 'src', value: 'news' }] },
  {
    split: [
      { url: 'https://example.com/a', weight: 50 },
      { url: 'https://example.com/b', weight: 50 },
    ],
    conditions: [{ type: 'query-any', key: 'ab' }],
  },
];

let counter = 0;

for (const dialect of dialects) {
  describe(`GET /v3/shorten/analytics/top-rules (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    const make = async (account: TestAccount, rules: EditBody['rules'] = RULES) => {
      const url = `https://example.com/own/${++counter}`;
      const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: [{ url, rules }] });
      assert.equal(res.statusCode, 200, res.body);
      const { slug, domain } = res.json()[0] as { slug: string; domain: string };
      return { slug, url, link: `${domain}/${slug}` };
    };
    const top = (account: TestAccount, query: Record<string, string>) =>
      ctx.t.app.inject({ url: `/v3/shorten/analytics/top-rules?${qs(query)}`, headers: account.headers });
    const dataOf = async (account: TestAccount, query: Record<string, string>) => {
      const res = await top(account, query);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data;
    };

    it('counts what each person’s visit took of the link’s rules, with the url each label names now', async () => {
      const owner = await ctx.t.account('rules');
      const ruled = await make(owner);
      const plain = await make(owner, []);
      await awayFromBoundary();
      const visitor = await buildTestApp(ctx.t.database, { CLICK_FLUSH_MS: '600000' });
      const visit = async (path: string, headers: Record<string, string> = {}) => {
        const res = await visitor.app.inject({ url: path, headers: { host: BASE_HOST, 'user-agent': BROWSER, ...headers } });
        return { status: res.statusCode, location: res.headers.location };
      };
      const visits: Array<[string, Record<string, string>, number, string]> = [
        // The first rule, by its query parameter.
        [`/${ruled.slug}?src=news`, {}, 3, 'https://example.com/news?src=news'],
        // The split: the bucket kept in the cookie picks the target (0–49 the first, 50–99 the second).
        [`/${ruled.slug}?ab=1`, { cookie: 'brief_split=10' }, 2, 'https://example.com/a?ab=1'],
        [`/${ruled.slug}?ab=1`, { cookie: 'brief_split=70' }, 1, 'https://example.com/b?ab=1'],
        // No rule: the link's own url, on both doors (no query string: the fast path's answer where there is one).
        [`/${ruled.slug}`, {}, 1, ruled.url],
        [`/${ruled.slug}?x=1`, {}, 1, `${ruled.url}?x=1`],
        // Not counted: bots, and a visitor who opted out (counted in the clicks, nothing else recorded).
        [`/${ruled.slug}?src=news`, { 'user-agent': GOOGLEBOT }, 2, 'https://example.com/news?src=news'],
        [`/${ruled.slug}?ab=1`, { cookie: 'brief_split=70', dnt: '1' }, 1, 'https://example.com/b?ab=1'],
        // A link without rules takes none.
        [`/${plain.slug}`, {}, 2, plain.url],
      ];
      for (const [path, headers, times, location] of visits) {
        for (let i = 0; i < times; i++)
          assert.deepEqual(await visit(path, headers), { status: path.startsWith(`/${plain.slug}`) ? 301 : 302, location });
      }
      // A first visit to the split draws a bucket: the target it was sent to is the one counted.
      const drawn = await visit(`/${ruled.slug}?ab=2`);
      const drawnLabel = drawn.location === 'https://example.com/a?ab=2' ? 'rules.1.split.0' : 'rules.1.split.1';
      assert.match(String(drawn.location), /^https:\/\/example\.com\/[ab]\?ab=2$/);
      await visitor.close(); // writes the events

      const stored = await ctx.t.database.db
        .selectFrom('click_events')
        .innerJoin('links', 'links.id', 'click_events.link_id')
        .select(['links.key', 'click_events.rule', 'click_events.bot', 'click_events.clicks'])
        .where('links.key', 'in', [ruled.slug, plain.slug])
        .execute();
      const taken = new Map<string, number>();
      for (const row of stored) {
        const name = `${row.key === plain.slug ? 'plain' : 'ruled'} ${row.rule} ${row.bot === null ? 'person' : 'bot'}`;
        taken.set(name, (taken.get(name) ?? 0) + Number(row.clicks));
      }
      const split0 = 2 + (drawnLabel === 'rules.1.split.0' ? 1 : 0);
      const split1 = 1 + (drawnLabel === 'rules.1.split.1' ? 1 : 0);
      assert.deepEqual(
        taken,
        new Map([
          ['ruled rules.0 person', 3],
          ['ruled rules.1.split.0 person', split0],
          ['ruled rules.1.split.1 person', split1],
          ['ruled url person', 2],
          // Bots' visits are stored with what they took (and left out of top-rules); the opted-out visit with nothing.
          ['ruled rules.0 bot', 2],
          ['ruled null person', 1],
          ['plain null person', 2],
        ]),
        'each stored visit says what it took',
      );

      const byClicks = (entries: Array<{ label: string; click: number; meta?: object }>) =>
        [...entries].sort((a, b) => b.click - a.click || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
      const expected = byClicks([
        { label: 'rules.0', click: 3, meta: { url: 'https://example.com/news' } },
        { label: 'rules.1.split.0', click: split0, meta: { url: 'https://example.com/a' } },
        { label: 'rules.1.split.1', click: split1, meta: { url: 'https://example.com/b' } },
        { label: 'url', click: 2, meta: { url: ruled.url } },
      ]);
      const res = await top(owner, { link: ruled.link, range: '1d' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().range, '1d');
      assert.deepEqual(res.json().data, expected);
      assert.deepEqual(await dataOf(owner, { link: ruled.link, limit: '2' }), expected.slice(0, 2));
      assert.deepEqual(await dataOf(owner, { link: plain.link }), [], 'a link without rules took none');
      // The bots are in the link's bots list, and in no other figure.
      assert.deepEqual(
        (await ctx.t.app.inject({ url: `/v3/shorten/analytics/top-bots?${qs({ link: ruled.link })}`, headers: owner.headers })).json().data,
        [{ label: 'Googlebot', click: 2 }],
      );

      // The rules edited: the split is gone, so its labels name no url any more; the first rule's url changed.
      const edit = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/${ruled.link}`,
        headers: owner.headers,
        payload: { rules: [{ url: 'https://example.com/news-2', conditions: [{ type: 'query', key: 'src', value: 'news' }] }] },
      });
      assert.equal(edit.statusCode, 200, edit.body);
      assert.deepEqual(
        await dataOf(owner, { link: ruled.link }),
        expected.map((entry) =>
          entry.label === 'rules.0'
            ? { ...entry, meta: { url: 'https://example.com/news-2' } }
            : entry.label.startsWith('rules.1.')
              ? { label: entry.label, click: entry.click }
              : entry,
        ),
      );
    });

    it('needs `link` (422 naming it), finds only the caller’s links (404), and checks the rest as every top list', async () => {
      const owner = await ctx.t.account('rules-errors');
      const other = await ctx.t.account('rules-other');
      const theirs = await make(other);
      const missing = await top(owner, { range: '7d' });
      assert.equal(missing.statusCode, 422, missing.body);
      assert.equal(missing.json().code, 'E_VALIDATION_ERROR');
      assert.deepEqual(
        missing.json().errors.map((e: { field: string }) => e.field),
        ['link'],
      );
      assert.match(missing.json().message, /\blink\b.*top-rules/);
      const notFound = await top(owner, { link: theirs.link });
      assert.equal(notFound.statusCode, 404, notFound.body);
      assert.equal(notFound.json().code, 'E_NOT_FOUND');
      assert.equal(notFound.json().message, 'Link not found');
      const malformed = await top(owner, { link: 'no-slash' });
      assert.equal(malformed.statusCode, 422);
      assert.equal(malformed.json().message, 'The link field must be domain/slug');
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/analytics/top-rules' })).statusCode, 401);
    });
  });
}
