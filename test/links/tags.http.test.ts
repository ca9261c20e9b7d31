// Tags on links (issue 40, decision 0040), through the app on every dialect: made with bulk items, shown on get, patch
// and list, replaced and cleared by patch, the first spelling kept, their limits, GET/PATCH/DELETE /v3/tags, and the
// list's filters by tag (any, all, exclude). Another workspace's tags are neither seen nor found.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { member } from '../support/people.js';

let counter = 0;
/** Until another session of the database waits on a lock (the rename, on the workspace's row). */
async function waitForLockWait(client: pg.Client): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await client.query(
      "select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
    );
    if (rows[0].waiting > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the rename never waited');
}

const freshUrl = () => `https://example.com/tags/${Date.now()}-${++counter}`;

for (const dialect of dialects) {
  describe(`tags (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    const call = (account: { headers: object } | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
      ctx.t.app.inject({ method, url, headers: (account?.headers ?? {}) as Record<string, string>, payload: payload as object | undefined });
    /** Links made in one bulk call, by their tags; their keys in the same order. */
    const make = async (account: TestAccount, ...tagLists: Array<string[] | undefined>) => {
      const res = await call(
        account,
        'POST',
        '/v3/shorten/bulk',
        tagLists.map((tags) => ({ url: freshUrl(), ...(tags && { tags }) })),
      );
      assert.equal(res.statusCode, 200, res.body);
      return res.json().map((item: { domain: string; slug: string }) => `${item.domain}/${item.slug}`) as string[];
    };
    const tagsOf = async (account: TestAccount, link: string) => {
      const res = await call(account, 'GET', `/v3/shorten/${link}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().tags as string[];
    };
    const listed = async (account: TestAccount, query: Record<string, string>) => {
      const res = await call(account, 'GET', `/v3/shorten/list?${qs({ perPage: '100', ...query })}`);
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      return {
        keys: body.links.map((l: { domainName: string; slug: string }) => `${l.domainName}/${l.slug}`) as string[],
        total: body.metadata.total as number,
      };
    };
    const tagList = async (account: { headers: object }) => {
      const res = await call(account, 'GET', '/v3/tags');
      assert.equal(res.statusCode, 200, res.body);
      return res.json() as Array<{ name: string; color: string | null; links: number }>;
    };

    it('carries tags from a bulk item to get, list and patch, sorted ignoring case', async () => {
      const account = await ctx.t.account();
      const [tagged, bare] = await make(account, ['zeta', 'Alpha', ' beta '], undefined);
      assert.deepEqual(await tagsOf(account, tagged!), ['Alpha', 'beta', 'zeta']);
      assert.deepEqual(await tagsOf(account, bare!), []);
      const { keys } = await listed(account, {});
      assert.deepEqual(keys, [bare, tagged]);
      const list = (await call(account, 'GET', '/v3/shorten/list')).json();
      assert.deepEqual(
        list.links.map((l: { tags: string[] }) => l.tags),
        [[], ['Alpha', 'beta', 'zeta']],
      );
      const patched = await call(account, 'PATCH', `/v3/shorten/${bare}`, { comment: 'no tags change' });
      assert.deepEqual(patched.json().tags, []);
      // The redirect never reads tags: a tagged link's target is an untagged one's, and it redirects alike.
      const targetOf = async (link: string) => {
        const [domain, key] = link.split('/') as [string, string];
        const { id, ...rest } = (await ctx.t.database.links.target(domain, key))!;
        return { ...rest, url: typeof rest.url };
      };
      assert.deepEqual(await targetOf(tagged!), await targetOf(bare!));
      const visit = await ctx.t.app.inject({ url: `/${tagged!.split('/')[1]}`, headers: { host: tagged!.split('/')[0]! } });
      assert.equal(visit.headers.location, (await call(account, 'GET', `/v3/shorten/${tagged}`)).json().originalUrl);
    });

    it('replaces the tags on patch, leaves them when absent, clears them with []', async () => {
      const account = await ctx.t.account();
      const [link] = await make(account, ['one', 'two']);
      const replaced = await call(account, 'PATCH', `/v3/shorten/${link}`, { tags: ['three', 'one'] });
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.deepEqual(replaced.json().tags, ['one', 'three']);
      await call(account, 'PATCH', `/v3/shorten/${link}`, { comment: 'x' });
      assert.deepEqual(await tagsOf(account, link!), ['one', 'three']);
      const cleared = await call(account, 'PATCH', `/v3/shorten/${link}`, { tags: [] });
      assert.deepEqual(cleared.json().tags, []);
      assert.deepEqual(await tagsOf(account, link!), []);
      // Tags without links stay listed until deleted.
      assert.deepEqual(await tagList(account), [
        { name: 'one', color: null, links: 0 },
        { name: 'three', color: null, links: 0 },
        { name: 'two', color: null, links: 0 },
      ]);
    });

    it('keeps the first spelling of a name in the workspace', async () => {
      const account = await ctx.t.account();
      const [first] = await make(account, ['marketing']);
      const [second] = await make(account, ['Marketing', 'NEWS']);
      const patched = await call(account, 'PATCH', `/v3/shorten/${first}`, { tags: ['MARKETING', 'news'] });
      assert.deepEqual(patched.json().tags, ['marketing', 'NEWS']);
      assert.deepEqual(await tagsOf(account, second!), ['marketing', 'NEWS']);
      assert.deepEqual(await tagList(account), [
        { name: 'marketing', color: null, links: 2 },
        { name: 'NEWS', color: null, links: 2 },
      ]);
    });

    it('refuses 21 tags, a name of 51 characters, a comma, an empty name, a control character and a name twice (422 naming the field)', async () => {
      const account = await ctx.t.account();
      const [link] = await make(account, ['keep']);
      const cases: Array<[unknown, string]> = [
        [Array.from({ length: 21 }, (_, i) => `t${i}`), 'maxItems'],
        [['x'.repeat(51)], 'tagName'],
        [['a,b'], 'tagName'],
        [['  '], 'tagName'],
        [['bad\u0000'], 'tagName'],
        [['tab\there'], 'tagName'],
        [['Same', 'same'], 'distinct'],
      ];
      for (const [tags, rule] of cases) {
        const patched = await call(account, 'PATCH', `/v3/shorten/${link}`, { tags });
        assert.equal(patched.statusCode, 422, `${JSON.stringify(tags)}: ${patched.body}`);
        assert.equal(patched.json().errors[0].field, 'tags', patched.body);
        assert.equal(patched.json().errors[0].rule, rule, patched.body);
        const bulk = await call(account, 'POST', '/v3/shorten/bulk', [{ url: freshUrl() }, { url: freshUrl(), tags }]);
        assert.equal(bulk.statusCode, 422, bulk.body);
        assert.equal(bulk.json().errors[0].field, '1.tags', bulk.body);
      }
      // A bulk item's fields are not coerced (bulk-items.ts): a number is no name.
      const number = await call(account, 'POST', '/v3/shorten/bulk', [{ url: freshUrl(), tags: [7] }]);
      assert.equal(number.statusCode, 422, number.body);
      assert.equal(number.json().errors[0].field, '0.tags.0', number.body);
      // 20 tags and 50 characters are fine.
      const most = Array.from({ length: 19 }, (_, i) => `t${i}`).concat(['y'.repeat(50)]);
      const ok = await call(account, 'PATCH', `/v3/shorten/${link}`, { tags: most });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().tags.length, 20);
    });

    it('lists the tags with their live links, renames, recolours and refuses a name in use', async () => {
      const account = await ctx.t.account();
      const [a, , deleted] = await make(account, ['red', 'blue'], ['red'], ['red']);
      assert.equal((await call(account, 'DELETE', `/v3/shorten/${deleted}`)).statusCode, 200);
      assert.deepEqual(await tagList(account), [
        { name: 'blue', color: null, links: 1 },
        { name: 'red', color: null, links: 2 },
      ]);
      const recoloured = await call(account, 'PATCH', '/v3/tags/RED', { color: '#FF0000' });
      assert.equal(recoloured.statusCode, 200, recoloured.body);
      assert.deepEqual(recoloured.json(), { name: 'red', color: '#ff0000', links: 2 });
      const renamed = await call(account, 'PATCH', '/v3/tags/red', { name: 'Crimson' });
      assert.deepEqual(renamed.json(), { name: 'Crimson', color: '#ff0000', links: 2 });
      assert.deepEqual(await tagsOf(account, a!), ['blue', 'Crimson']);
      const recased = await call(account, 'PATCH', '/v3/tags/crimson', { name: 'CRIMSON' });
      assert.equal(recased.statusCode, 200, recased.body);
      assert.equal(recased.json().name, 'CRIMSON');
      const taken = await call(account, 'PATCH', '/v3/tags/crimson', { name: 'Blue' });
      assert.equal(taken.statusCode, 409, taken.body);
      assert.equal(taken.json().code, 'E_CONFLICT');
      const uncoloured = await call(account, 'PATCH', `/v3/tags/${encodeURIComponent('CRIMSON')}`, { color: null });
      assert.equal(uncoloured.json().color, null);
      for (const color of ['red', '#ff00', '#gg0000', 'ff0000', 12]) {
        const bad = await call(account, 'PATCH', '/v3/tags/blue', { color });
        assert.equal(bad.statusCode, 422, `${color}: ${bad.body}`);
        assert.equal(bad.json().errors[0].field, 'color');
      }
      const badName = await call(account, 'PATCH', '/v3/tags/blue', { name: 'a,b' });
      assert.equal(badName.statusCode, 422);
      assert.equal(badName.json().errors[0].field, 'name');
      assert.equal((await call(account, 'PATCH', '/v3/tags/nothing', { color: '#000000' })).statusCode, 404);
    });

    if (dialect === 'postgres')
      it('answers 409 when a link makes a tag of the new name while the rename is under way', async () => {
        const account = await ctx.t.account();
        await make(account, ['old']);
        // A link's write holding a new tag 'Fresh' uncommitted: its foreign key's key-share lock on the workspace's row
        // makes the rename's turn (for update) wait until it commits, and the rename then finds the name in use.
        const writer = new pg.Client({ connectionString: ctx.db.url });
        await writer.connect();
        try {
          await writer.query('begin');
          await writer.query("insert into tags (account_id, name, name_key, color, created_at) values ($1, 'Fresh', 'fresh', null, $2)", [
            account.id,
            Date.now(),
          ]);
          const renaming = call(account, 'PATCH', '/v3/tags/old', { name: 'FRESH' });
          await waitForLockWait(writer);
          await writer.query('commit');
          const renamed = await renaming;
          assert.equal(renamed.statusCode, 409, renamed.body);
          assert.equal(renamed.json().code, 'E_CONFLICT');
        } finally {
          await writer.end();
        }
        assert.deepEqual(
          (await tagList(account)).map((tag) => tag.name),
          ['Fresh', 'old'],
        );
      });

    it('deletes a tag from every link, which keep their other tags', async () => {
      const account = await ctx.t.account();
      const [both, only] = await make(account, ['gone', 'stays'], ['gone']);
      assert.equal((await call(account, 'DELETE', '/v3/tags/GONE')).statusCode, 200);
      assert.deepEqual(await tagsOf(account, both!), ['stays']);
      assert.deepEqual(await tagsOf(account, only!), []);
      assert.deepEqual(await tagList(account), [{ name: 'stays', color: null, links: 1 }]);
      assert.equal((await call(account, 'DELETE', '/v3/tags/gone')).statusCode, 404);
      // The name is free again: a link that uses it makes a new tag.
      const [again] = await make(account, ['Gone']);
      assert.deepEqual(await tagsOf(account, again!), ['Gone']);
    });

    it('takes the tags off the links a domain is removed with (brief domain remove --with-links)', async () => {
      const account = await ctx.t.account();
      const domain = await ctx.t.privateDomain(account.id);
      const res = await call(account, 'POST', '/v3/shorten/bulk', [
        { url: freshUrl(), domain, tags: ['gone', 'kept'] },
        { url: freshUrl(), tags: ['kept'] },
      ]);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(await ctx.t.domains.remove(domain, true), 1);
      assert.deepEqual(await tagList(account), [
        { name: 'gone', color: null, links: 0 },
        { name: 'kept', color: null, links: 1 },
      ]);
      assert.deepEqual(await listed(account, { tags: 'gone' }), { keys: [], total: 0 });
    });

    it("keeps each workspace's tags to itself: another's is 404, unseen and unmatched", async () => {
      const mine = await ctx.t.account();
      const theirs = await ctx.t.account();
      const [their] = await make(theirs, ['secret', 'shared']);
      const [my] = await make(mine, ['Shared']);
      assert.deepEqual(await tagsOf(mine, my!), ['Shared']);
      assert.deepEqual(await tagList(mine), [{ name: 'Shared', color: null, links: 1 }]);
      assert.equal((await call(mine, 'PATCH', '/v3/tags/secret', { color: '#000000' })).statusCode, 404);
      assert.equal((await call(mine, 'DELETE', '/v3/tags/secret')).statusCode, 404);
      assert.deepEqual(await listed(mine, { tags: 'secret' }), { keys: [], total: 0 });
      assert.deepEqual(await listed(mine, { tags: 'shared' }), { keys: [my], total: 1 });
      assert.deepEqual(await tagsOf(theirs, their!), ['secret', 'shared']);
      assert.equal((await call(mine, 'GET', '/v3/tags?workspaceId=someone-else')).statusCode, 404);
    });

    it('lets a viewer, or a token with links:read alone, read tags but not change them', async () => {
      const owner = await ctx.t.account();
      await make(owner, ['team']);
      const viewer = await member(ctx.t, owner.id, 'viewer');
      assert.deepEqual(await tagList(viewer), [{ name: 'team', color: null, links: 1 }]);
      assert.equal((await call(viewer, 'PATCH', '/v3/tags/team', { color: '#000000' })).statusCode, 403);
      assert.equal((await call(viewer, 'DELETE', '/v3/tags/team')).statusCode, 403);
      // A token's scopes: reading tags needs links:read, changing them links:write.
      const made = (await call(owner, 'POST', '/v3/tokens', { name: 'read only', scopes: ['links:read'] })).json();
      const readOnly = { headers: { authorization: `Bearer ${made.token}` } };
      assert.equal((await call(readOnly, 'GET', '/v3/tags')).statusCode, 200);
      const refused = await call(readOnly, 'DELETE', '/v3/tags/team');
      assert.equal(refused.statusCode, 403, refused.body);
      assert.match(refused.json().message, /links:write/);
      const editor = await member(ctx.t, owner.id, 'member');
      assert.equal((await call(editor, 'PATCH', '/v3/tags/team', { color: '#000000' })).statusCode, 200);
    });

    it('filters the list by tags: any, all, exclude and their combinations', async () => {
      const account = await ctx.t.account();
      const [ab, a, b, c, none] = await make(account, ['a', 'b'], ['A'], ['b'], ['c', 'b'], undefined);
      const newestFirst = (...keys: Array<string | undefined>) => ({ keys: keys.reverse() as string[], total: keys.length });
      assert.deepEqual(await listed(account, { tags: 'a' }), newestFirst(ab, a));
      assert.deepEqual(await listed(account, { tags: 'a,b' }), newestFirst(ab, a, b, c));
      assert.deepEqual(await listed(account, { tags: 'a,B', tagMode: 'any' }), newestFirst(ab, a, b, c));
      assert.deepEqual(await listed(account, { tags: 'a,b', tagMode: 'all' }), newestFirst(ab));
      assert.deepEqual(await listed(account, { tags: 'a,unknown', tagMode: 'all' }), newestFirst());
      assert.deepEqual(await listed(account, { tags: 'unknown' }), newestFirst());
      assert.deepEqual(await listed(account, { excludeTags: 'b' }), newestFirst(a, none));
      assert.deepEqual(await listed(account, { excludeTags: 'unknown' }), newestFirst(ab, a, b, c, none));
      assert.deepEqual(await listed(account, { tags: 'b', excludeTags: 'a,c' }), newestFirst(b));
      assert.deepEqual(await listed(account, { tags: 'a,b', tagMode: 'all', excludeTags: 'c' }), newestFirst(ab));
      assert.deepEqual(await listed(account, { tags: ' , ' }), newestFirst(ab, a, b, c, none));
      // With a search, and a page: the total counts every match.
      const page = await call(account, 'GET', `/v3/shorten/list?${qs({ tags: 'b', perPage: '1', page: '2' })}`);
      assert.deepEqual(page.json().metadata, { total: 3, perPage: 1, page: 2 });
      assert.equal(`${page.json().links[0].domainName}/${page.json().links[0].slug}`, b);
      const searched = await listed(account, { tags: 'b', search: c!.split('/')[1]! });
      assert.deepEqual(searched, newestFirst(c));
      // A deleted link leaves the tag's counts and lists.
      await call(account, 'DELETE', `/v3/shorten/${ab}`);
      assert.deepEqual(await listed(account, { tags: 'a' }), newestFirst(a));
      assert.deepEqual(await listed(account, { excludeTags: 'c' }), newestFirst(a, b, none));
    });

    it('refuses a bad filter: a tagMode not any or all, a name with a control character (422 naming the field)', async () => {
      const account = await ctx.t.account();
      const mode = await call(account, 'GET', '/v3/shorten/list?tags=a&tagMode=some');
      assert.equal(mode.statusCode, 422, mode.body);
      assert.equal(mode.json().errors[0].field, 'tagMode');
      const control = await call(account, 'GET', `/v3/shorten/list?${qs({ excludeTags: 'a\u0000' })}`);
      assert.equal(control.statusCode, 422, control.body);
      assert.equal(control.json().errors[0].field, 'excludeTags');
      const many = await call(account, 'GET', `/v3/shorten/list?${qs({ excludeTags: Array.from({ length: 21 }, (_, i) => `n${i}`).join(',') })}`);
      assert.equal(many.statusCode, 422, many.body);
      assert.deepEqual([many.json().errors[0].field, many.json().errors[0].rule], ['excludeTags', 'maxItems']);
      const long = await call(account, 'GET', `/v3/shorten/list?${qs({ tags: 'x'.repeat(51) })}`);
      assert.equal(long.statusCode, 422, long.body);
      assert.equal(long.json().errors[0].field, 'tags');
    });
  });
}
