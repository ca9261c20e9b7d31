// Analytics by tag (issue 40, decision 0040): the v3 analytics calls take `tags`, `tagMode` and `excludeTags` as the
// list does, counting the clicks of the links with (or without) those tags now: through clicks and a top list on every
// dialect, and a bad filter refused by every analytics route.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { LINK_TOP_LIST_DIMENSIONS, personVisit, TOP_LIST_DIMENSIONS } from '../support/events.js';

let counter = 0;
let seq = 0;

for (const dialect of dialects) {
  describe(`analytics by tag (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    /** Links made with these tags, each with its id and short URL. */
    const make = async (account: TestAccount, ...tagLists: string[][]) => {
      const items = tagLists.map((tags) => ({ url: `https://example.com/tagged/${++counter}`, slug: `tagged-${counter}`, tags }));
      const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: items });
      assert.equal(res.statusCode, 200, res.body);
      return Promise.all(
        res.json().map(async (item: { slug: string; shortLink: string }) => {
          const row = await ctx.t.database.db.selectFrom('links').select('id').where('slug', '=', item.slug).executeTakeFirstOrThrow();
          return { id: Number(row.id), shortUrl: item.shortLink };
        }),
      );
    };
    const clicksOf = async (account: TestAccount, query: Record<string, string>) => {
      const res = await ctx.t.app.inject({ url: `/v3/shorten/analytics/clicks?${qs(query)}`, headers: account.headers });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().data as Array<{ click: number }>).reduce((sum, point) => sum + point.click, 0);
    };

    it('counts the clicks of the links a filter keeps by their tags now: any, all, exclude', async () => {
      const [owner, other] = [await ctx.t.account(), await ctx.t.account()];
      const [x, xy, y, none] = await make(owner, ['x'], ['X', 'y'], ['y'], []);
      const [theirs] = await make(other, ['x']);
      const now = Date.now() - 60_000;
      const visits = [
        [x!, 1],
        [xy!, 2],
        [y!, 4],
        [none!, 8],
        [theirs!, 16],
      ] as const;
      await ctx.t.database.analytics.add({
        writer: `tag-filters-${dialect}`,
        seq: ++seq,
        events: visits.map(([link, clicks]) => ({ ...personVisit(link.id, now), clicks })),
      });
      assert.equal(await clicksOf(owner, {}), 15);
      assert.equal(await clicksOf(owner, { tags: 'x' }), 3);
      assert.equal(await clicksOf(owner, { tags: 'x,Y' }), 7);
      assert.equal(await clicksOf(owner, { tags: 'x,y', tagMode: 'all' }), 2);
      assert.equal(await clicksOf(owner, { excludeTags: 'y' }), 9);
      assert.equal(await clicksOf(owner, { tags: 'x', excludeTags: 'y' }), 1);
      assert.equal(await clicksOf(owner, { tags: 'unknown' }), 0);
      assert.equal(await clicksOf(owner, { excludeTags: 'unknown' }), 15);
      assert.equal(await clicksOf(owner, { tags: 'x', granularity: 'hour', range: '24h' }), 3);
      assert.equal(await clicksOf(other, { tags: 'x' }), 16);
      // By the tags the links have now: a tag taken off a link takes its clicks out of the tag's figures.
      await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/${new URL(xy!.shortUrl).host}${new URL(xy!.shortUrl).pathname}`,
        headers: owner.headers,
        payload: { tags: ['y'] },
      });
      assert.equal(await clicksOf(owner, { tags: 'x' }), 1);
      const top = await ctx.t.app.inject({ url: `/v3/shorten/analytics/top-short-links?${qs({ tags: 'y' })}`, headers: owner.headers });
      assert.equal(top.statusCode, 200, top.body);
      assert.deepEqual(top.json().data, [
        { label: y!.shortUrl, click: 4 },
        { label: xy!.shortUrl, click: 2 },
      ]);
    });

    it('refuses a bad filter on every analytics route (422 naming the field)', async () => {
      const account = await ctx.t.account();
      const [link] = await make(account, ['a']);
      const routes = ['clicks', ...[...TOP_LIST_DIMENSIONS, ...LINK_TOP_LIST_DIMENSIONS].map((dimension) => `top-${dimension}`)];
      const reference = `${new URL(link!.shortUrl).host}${new URL(link!.shortUrl).pathname}`;
      for (const route of routes) {
        for (const [query, field] of [
          [{ tags: 'a', tagMode: 'some' }, 'tagMode'],
          [{ tags: 'a,b\u0001' }, 'tags'],
          [{ excludeTags: 'x'.repeat(51) }, 'excludeTags'],
        ] as const) {
          const res = await ctx.t.app.inject({
            url: `/v3/shorten/analytics/${route}?${qs({ ...query, link: reference })}`,
            headers: account.headers,
          });
          assert.equal(res.statusCode, 422, `${route} ${JSON.stringify(query)}: ${res.body}`);
          assert.equal(res.json().errors[0].field, field, res.body);
        }
      }
    });
  });
}
