// The v3 link calls (docs/api/v3.md), checked as the public SDK checks them:
// UUIDs, ISO timestamps, booleans, strings never null, result order, per-item errors, and
// the JSON error shape for every error status.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate as isUuid } from 'uuid';
import { BASE_HOST, BASE_PREFIX, qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects, storedClicks } from '../support/database.js';

let counter = 0;
const freshUrl = (label = 'v3') => `https://example.com/${label}/${Date.now()}-${++counter}`;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

function assertErrorShape(res: { statusCode: number; headers: Record<string, unknown>; json(): any }, status: number, code: string) {
  assert.equal(res.statusCode, status);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
}

/** What the SDK's schema for a bulk success element checks. */
function assertBulkSuccess(item: any) {
  assert.ok(isUuid(item.id), `id ${item.id}`);
  new URL(item.url);
  for (const field of ['slug', 'domain', 'shortLink', 'comment']) assert.equal(typeof item[field], 'string', field);
  for (const field of ['isCustomSlug', 'isReused']) assert.equal(typeof item[field], 'boolean', field);
}

/** What the SDK's schema for a listed link checks. */
function assertListedLink(link: any) {
  for (const field of ['id', 'userId', 'workspaceId']) assert.ok(isUuid(link[field]), `${field} ${link[field]}`);
  new URL(link.originalUrl);
  assert.match(link.createdAt, ISO);
  for (const field of ['expiresAt', 'updatedAt']) assert.ok(link[field] === null || ISO.test(link[field]), `${field} ${link[field]}`);
  assert.equal(typeof link.statsClicks, 'number');
  for (const field of ['isCustomSlug', 'allowSearchEngineIndexing', 'archived', 'suspended']) assert.equal(typeof link[field], 'boolean', field);
  for (const field of ['slug', 'shortUrl', 'comment']) assert.equal(typeof link[field], 'string', field);
}

for (const dialect of dialects) {
  describe(`v3 links (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    const bulk = (items: unknown, account: TestAccount | null, query = '') =>
      ctx.t.app.inject({ method: 'POST', url: `/v3/shorten/bulk${query}`, payload: items as object, headers: account?.headers ?? {} });
    const list = (account: TestAccount | null, query: Record<string, string> = {}) =>
      ctx.t.app.inject({ url: `/v3/shorten/list?${qs(query)}`, headers: account?.headers ?? {} });
    const one = (method: 'GET' | 'DELETE' | 'PATCH', account: TestAccount | null, path: string, payload?: object) =>
      ctx.t.app.inject({ method, url: `/v3/shorten/${path}`, headers: account?.headers ?? {}, ...(payload && { payload }) });
    const visit = (key: string, method = 'GET') => ctx.t.app.inject({ method, url: `/${key}`, headers: { host: BASE_HOST } });

    describe('POST /v3/shorten/bulk', () => {
      it('answers one element per item, in order, a write-time failure failing alone', async () => {
        const account = await ctx.t.account();
        const [a, b, c] = [freshUrl(), freshUrl(), freshUrl()];
        const res = await bulk([{ url: a }, { url: c, domain: 'nobody.example' }, { url: b, slug: `s-${counter}`, comment: 'note' }], account);
        assert.equal(res.statusCode, 200, res.body);
        const items = res.json();
        assert.equal(items.length, 3);
        assertBulkSuccess(items[0]);
        assert.equal(items[0].url, a);
        assert.equal(items[0].isCustomSlug, false);
        assert.equal(items[0].isReused, false);
        assert.equal(items[0].comment, '');
        assert.equal(items[0].shortLink, `${BASE_PREFIX}/${items[0].slug}`);
        assert.deepEqual(items[1], { url: c, error: 'E_VALIDATION_ERROR', message: 'The selected domain is invalid' });
        assertBulkSuccess(items[2]);
        assert.equal(items[2].isCustomSlug, true);
        assert.equal(items[2].comment, 'note');
        assert.equal(items[2].url, b);
        // Each success redirects like any link.
        assert.equal((await visit(items[0].slug)).headers.location, a);
        assert.equal((await visit(items[2].slug)).headers.location, b);
      });

      it('makes a new link for a URL the caller has, unless asked to reuse it', async () => {
        const account = await ctx.t.account();
        const url = freshUrl();
        const [first] = (await bulk([{ url }], account)).json();
        const [second] = (await bulk([{ url }], account)).json();
        assert.notEqual(second.id, first.id, 'without reuseExisting a new link');
        assert.equal(second.isReused, false);
        const [reused] = (await bulk([{ url, reuseExisting: true }], account)).json();
        assert.equal(reused.id, first.id, 'the first link to the URL is the one reused');
        assert.equal(reused.isReused, true);
        // v2's dedupe finds the same link.
        const v2 = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url })}`, headers: account.headers });
        assert.equal(v2.json().code, first.slug);
      });

      it('never reuses for, or returns, a link with a password or an expiry', async () => {
        const account = await ctx.t.account();
        const url = freshUrl();
        const [guarded] = (await bulk([{ url, password: 'secret-1', reuseExisting: true }], account)).json();
        const [plain] = (await bulk([{ url, reuseExisting: true }], account)).json();
        const [expiring] = (await bulk([{ url, expiredAt: inAnHour(), reuseExisting: true }], account)).json();
        assert.equal(new Set([guarded.id, plain.id, expiring.id]).size, 3);
        assert.equal(plain.isReused, false);
      });

      it('refuses a body that is not an array of 1 to 200 items, as a whole', async () => {
        for (const body of [{ url: freshUrl() }, [], Array.from({ length: 201 }, () => ({ url: freshUrl() }))]) {
          const res = await bulk(body, null);
          assertErrorShape(res, 422, 'E_VALIDATION_ERROR');
        }
        for (const payload of ['"text"', '42', 'null']) {
          const res = await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: { 'content-type': 'application/json' }, payload });
          assertErrorShape(res, 422, 'E_VALIDATION_ERROR');
        }
        const xml = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: { 'content-type': 'application/xml' },
          payload: '<a/>',
        });
        assertErrorShape(xml, 415, 'E_BAD_REQUEST');
        // Nor is a JSON string (which Ajv would coerce into a one-item array), nor plain text.
        const send = (payload: string, contentType: string) =>
          ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: { 'content-type': contentType }, payload });
        for (const res of [
          await send('"text"', 'application/json'),
          await send('{"url":"https://example.com/"}', 'application/json'),
          await send('text', 'text/plain'),
        ]) {
          assertErrorShape(res, 422, 'E_VALIDATION_ERROR');
          assert.equal(res.json().message, 'The request field must be an array');
        }
        const res = await ctx.t.app.inject({
          method: 'POST',
          url: '/v3/shorten/bulk',
          headers: { 'content-type': 'application/json' },
          payload: '[{"url":',
        });
        assertErrorShape(res, 400, 'E_BAD_REQUEST');
      });

      it('makes 200 links in one request', async () => {
        const account = await ctx.t.account();
        const urls = Array.from({ length: 200 }, () => freshUrl('bulk200'));
        const res = await bulk(
          urls.map((url) => ({ url })),
          account,
        );
        assert.equal(res.statusCode, 200);
        const items = res.json();
        assert.deepEqual(
          items.map((i: any) => i.url),
          urls,
        );
        assert.equal(new Set(items.map((i: any) => i.id)).size, 200);
      });

      it('settles a mix of new, bad, reused and slugged items in one request, each on its own', async () => {
        const account = await ctx.t.account();
        const other = await ctx.t.account();
        const [known, fresh, twice, slugUrl] = [freshUrl(), freshUrl(), freshUrl(), freshUrl()];
        const [existing] = (await bulk([{ url: known }], account)).json();
        const theirSlug = `theirs-${counter}`;
        const [theirs] = (await bulk([{ url: freshUrl(), slug: theirSlug }], other)).json();
        const slug = `mix-${counter}`;
        const res = await bulk(
          [
            { url: fresh },
            { url: known, reuseExisting: true },
            { url: 'https://example.com/file', domain: 'nobody.example' },
            { url: slugUrl, slug },
            { url: freshUrl(), slug },
            { url: slugUrl, slug, reuseExisting: true },
            { url: twice, reuseExisting: true },
            { url: twice, reuseExisting: true },
            { url: twice },
            { url: freshUrl(), slug: theirSlug },
            { url: known },
          ],
          account,
        );
        assert.equal(res.statusCode, 200, res.body);
        const items = res.json();
        assert.equal(items.length, 11);
        const taken = { error: 'E_VALIDATION_ERROR', message: 'The slug has already been taken' };
        assert.equal(items[0].url, fresh);
        assert.equal(items[0].isReused, false);
        assert.deepEqual([items[1].id, items[1].isReused], [existing.id, true], 'reuses the link made before');
        assert.deepEqual(items[2], { url: 'https://example.com/file', error: 'E_VALIDATION_ERROR', message: 'The selected domain is invalid' });
        assert.deepEqual([items[3].slug, items[3].isCustomSlug, items[3].isReused], [slug, true, false]);
        assert.deepEqual({ error: items[4].error, message: items[4].message }, taken, 'a slug an earlier item took');
        assert.deepEqual([items[5].id, items[5].isReused], [items[3].id, true], 'the same slug and URL again is the same link');
        assert.equal(items[6].isReused, false);
        assert.deepEqual([items[7].id, items[7].isReused], [items[6].id, true], 'dedupe within the request');
        assert.notEqual(items[8].id, items[6].id, 'without reuseExisting a new link');
        assert.deepEqual({ error: items[9].error, message: items[9].message }, taken, 'another account’s slug');
        assert.notEqual(items[10].id, existing.id);
        for (const i of [0, 1, 3, 5, 6, 7, 8, 10]) assertBulkSuccess(items[i]);
        for (const i of [0, 3, 6, 8, 10]) assert.equal((await visit(items[i].slug)).headers.location, items[i].url, `item ${i} redirects`);
        assert.equal((await visit(theirSlug)).headers.location, theirs.url, 'the other account’s slug still goes where it went');
        // The links are the caller's, listed like any other.
        const listed = (await list(account, { perPage: '50' })).json().links.map((link: any) => link.id);
        for (const i of [0, 3, 6, 8, 10]) assert.ok(listed.includes(items[i].id), `item ${i} listed`);
      });

      it('checks each field of every item before making any, naming the item', async () => {
        const account = await ctx.t.account();
        const good = freshUrl();
        const res = await bulk(
          [
            { url: freshUrl(), password: 'short' },
            { url: freshUrl(), expiredAt: '2001-01-01T00:00:00Z' },
            { url: freshUrl(), expiredAt: 'tomorrow' },
            { url: freshUrl(), reuseExisting: 'yes' },
            { url: freshUrl(), slug: 'v2' },
            { url: freshUrl(), comment: 'x'.repeat(1025) },
            { url: good },
          ],
          account,
        );
        assertErrorShape(res, 422, 'E_VALIDATION_ERROR');
        assert.deepEqual(
          res.json().errors.map((e: any) => [e.field, e.message]),
          [
            ['0.password', 'The 0.password field must be at least 6 characters'],
            ['1.expiredAt', 'The 1.expiredAt field must be a date in the future'],
            ['2.expiredAt', 'The 2.expiredAt field must be an ISO 8601 timestamp with a time zone'],
            ['3.reuseExisting', 'The 3.reuseExisting field must be a boolean'],
            ['4.slug', 'The 4.slug is reserved'],
            ['5.comment', 'The 5.comment field must not be greater than 1024 characters'],
          ],
        );
        assert.equal(res.json().message, 'The 0.password field must be at least 6 characters');
        assert.equal((await list(account)).json().metadata.total, 0, 'nothing made, the good item neither');
      });
    });

    describe('GET /v3/shorten', () => {
      it('answers the fields the launcher reads, and reuses only with returnExisting', async () => {
        const account = await ctx.t.account();
        const url = freshUrl();
        const first = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url, comment: 'c' })}`, headers: account.headers });
        assert.equal(first.statusCode, 200, first.body);
        const body = first.json();
        assert.deepEqual(Object.keys(body).sort(), ['code', 'domain', 'id', 'shortened', 'slug', 'status', 'url', 'urlPrefix']);
        assert.ok(isUuid(body.id));
        assert.equal(body.shortened, `${BASE_PREFIX}/${body.code}`);
        const again = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url, returnExisting: '1' })}`, headers: account.headers });
        assert.equal(again.json().id, body.id);
        const fresh = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url })}`, headers: account.headers });
        assert.notEqual(fresh.json().id, body.id);
        assertErrorShape(await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: 'ftp://x' })}` }), 422, 'E_VALIDATION_ERROR');
      });
    });

    describe('GET /v3/shorten/list', () => {
      it("lists the caller's links newest first, with the SDK's fields, a page at a time", async () => {
        const account = await ctx.t.account();
        const made = [];
        for (let i = 0; i < 12; i++) made.push((await bulk([{ url: freshUrl('list') }], account)).json()[0]);
        const page1 = await list(account);
        assert.equal(page1.statusCode, 200);
        const body = page1.json();
        assert.deepEqual(body.metadata, { total: 12, perPage: 10, page: 1 });
        assert.deepEqual(
          body.links.map((l: any) => l.id),
          made
            .slice(2)
            .reverse()
            .map((m) => m.id),
        );
        for (const link of body.links) assertListedLink(link);
        const page2 = (await list(account, { page: '2', perPage: '10' })).json();
        assert.deepEqual(page2.metadata, { total: 12, perPage: 10, page: 2 });
        assert.deepEqual(
          page2.links.map((l: any) => l.id),
          [made[1].id, made[0].id],
        );
        assert.equal((await list(account, { page: '3' })).json().links.length, 0);
      });

      it('searches the key, the destination and the comment, any case, wildcards literal, total counted', async () => {
        const account = await ctx.t.account();
        const other = await ctx.t.account();
        const tag = `Srch${Date.now()}`;
        const made = [];
        // One call each, so the ids (the list's order) follow the array's.
        for (const item of [
          { url: `https://example.com/${tag}/one` },
          { url: freshUrl(), slug: `${tag}-slug` },
          { url: freshUrl(), comment: `about ${tag.toUpperCase()}` },
          { url: freshUrl(), comment: '100%_sure' },
          { url: freshUrl() },
        ]) {
          made.push((await bulk([item], account)).json()[0]);
        }
        await bulk([{ url: `https://example.com/${tag}/theirs` }], other);
        const found = (await list(account, { search: tag.toLowerCase() })).json();
        assert.equal(found.metadata.total, 3);
        assert.deepEqual(
          found.links.map((l: any) => l.id),
          [made[2].id, made[1].id, made[0].id],
        );
        const paged = (await list(account, { search: tag, perPage: '2', page: '2' })).json();
        assert.deepEqual(paged.metadata, { total: 3, perPage: 2, page: 2 });
        assert.deepEqual(
          paged.links.map((l: any) => l.id),
          [made[0].id],
        );
        assert.deepEqual(
          (await list(account, { search: '%_' })).json().links.map((l: any) => l.id),
          [made[3].id],
        );
        assert.equal((await list(account, { search: '_' })).json().metadata.total, 1, 'an underscore is itself, not any character');
        assert.equal((await list(account, { search: '' })).json().metadata.total, 5);
        assertErrorShape(await list(account, { search: 'x'.repeat(201) }), 422, 'E_VALIDATION_ERROR');
        // A NUL cannot be in any link (PostgreSQL refuses it in text): a validation error naming the field, never a 500.
        const nul = await list(account, { search: 'a\u0000b' });
        assertErrorShape(nul, 422, 'E_VALIDATION_ERROR');
        assert.match(nul.json().message, /search/);
      });

      it('shows clicks, blocks, expiry, and links made with v2; not other accounts’ links', async () => {
        const account = await ctx.t.account();
        const other = await ctx.t.account();
        await bulk([{ url: freshUrl() }], other);
        const v2 = (await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), title: 't' })}`, headers: account.headers })).json();
        const expiry = inAnHour();
        const [expiring] = (await bulk([{ url: freshUrl(), expiredAt: expiry }], account)).json();
        await ctx.t.links.setStatus(v2.code, 'blocked');
        const links = (await list(account)).json().links;
        assert.equal(links.length, 2);
        const [first, second] = links;
        assert.equal(first.id, expiring.id);
        assert.equal(first.expiresAt, expiry);
        assert.equal(second.slug, v2.code);
        assert.equal(second.suspended, true);
        assert.equal(second.expiresAt, null);
      });

      it('counts clicks into statsClicks once they are written', async () => {
        const account = await ctx.t.account();
        const [made] = (await bulk([{ url: freshUrl() }], account)).json();
        for (let i = 0; i < 3; i++) assert.equal((await visit(made.slug)).statusCode, 301);
        const listed = async () => (await list(account)).json().links[0].statsClicks;
        assert.ok((await listed()) <= 3);
        const deadline = Date.now() + 5_000;
        while ((await storedClicks(ctx.t.database, made.slug)) < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        assert.equal(await listed(), 3);
      });

      it('validates page and perPage, and needs a token', async () => {
        const account = await ctx.t.account();
        for (const query of [{ perPage: '0' }, { perPage: '501' }, { page: '0' }, { page: 'x' }] as Array<Record<string, string>>) {
          assertErrorShape(await list(account, query), 422, 'E_VALIDATION_ERROR');
        }
        assert.equal((await list(account, { perPage: '500' })).statusCode, 200);
        assertErrorShape(await list(null), 401, 'E_UNAUTHORIZED_ACCESS');
        assertErrorShape(await list({ ...account, headers: { authorization: 'Bearer nope' } }), 401, 'E_UNAUTHORIZED_ACCESS');
      });
    });

    describe('workspaceId', () => {
      it("takes absent, empty or 'undefined' as the caller's own, its own id too, and any other as not found", async () => {
        const account = await ctx.t.account();
        const other = await ctx.t.account();
        const [made] = (await bulk([{ url: freshUrl() }], account)).json();
        const own = (await list(account)).json().links[0].workspaceId;
        const theirs = (await bulk([{ url: freshUrl() }], other)).json()[0];
        assert.ok(theirs.id);
        const otherWorkspace = (await list(other)).json().links[0].workspaceId;
        for (const workspaceId of ['', 'undefined', own]) {
          const res = await list(account, { workspaceId });
          assert.equal(res.statusCode, 200, `${workspaceId}: ${res.body}`);
          assert.equal(res.json().links[0].id, made.id);
        }
        for (const workspaceId of [otherWorkspace, 'not-a-uuid']) {
          assertErrorShape(await list(account, { workspaceId }), 404, 'E_NOT_FOUND');
          assertErrorShape(await bulk([{ url: freshUrl() }], account, `?${qs({ workspaceId })}`), 404, 'E_NOT_FOUND');
        }
      });
    });

    describe('one link: GET, PATCH, DELETE /v3/shorten/{domain}/{slug}', () => {
      it('reads, edits and deletes the caller’s link; another account’s is not found', async () => {
        const account = await ctx.t.account();
        const other = await ctx.t.account();
        const slug = `one-${Date.now()}`;
        const [made] = (await bulk([{ url: freshUrl(), slug, comment: 'first' }], account)).json();
        const path = `${BASE_HOST}/${slug}`;

        const got = await one('GET', account, path);
        assert.equal(got.statusCode, 200, got.body);
        const link = got.json();
        assert.equal(link.domain, BASE_HOST);
        assert.equal(link.id, made.id);
        assert.equal(link.comment, 'first');
        assertListedLink(link);
        assert.equal((await one('GET', account, `${BASE_HOST}/${made.slug}`)).json().id, made.id);

        for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
          assertErrorShape(await one(method, other, path, method === 'PATCH' ? { comment: 'x' } : undefined), 404, 'E_NOT_FOUND');
          assertErrorShape(await one(method, null, path, method === 'PATCH' ? { comment: 'x' } : undefined), 401, 'E_UNAUTHORIZED_ACCESS');
        }
        assertErrorShape(await one('GET', account, `${BASE_HOST}/no-such-slug`), 404, 'E_NOT_FOUND');

        const target = freshUrl('edited');
        const edited = await one('PATCH', account, path, { url: target, comment: null });
        assert.equal(edited.statusCode, 200, edited.body);
        assert.equal(edited.json().originalUrl, target);
        assert.equal(edited.json().comment, '');
        assert.match(edited.json().updatedAt, ISO);
        assert.equal((await visit(slug)).headers.location, target);

        assertErrorShape(await one('PATCH', account, path, { url: 'javascript:alert(1)' }), 422, 'E_VALIDATION_ERROR');
        assertErrorShape(await one('PATCH', account, path, { expiredAt: '2001-01-01T00:00:00Z' }), 422, 'E_VALIDATION_ERROR');
        assertErrorShape(await one('PATCH', account, path, { password: '12345' }), 422, 'E_VALIDATION_ERROR');

        const deleted = await one('DELETE', account, path);
        assert.equal(deleted.statusCode, 200);
        assert.deepEqual(deleted.json(), { success: true });
        assert.equal((await visit(slug)).statusCode, 404);
        assertErrorShape(await one('GET', account, path), 404, 'E_NOT_FOUND');
      });

      it('deletes a v3 link with v2, and a v2 link with v3', async () => {
        const account = await ctx.t.account();
        const [made] = (await bulk([{ url: freshUrl() }], account)).json();
        const v2Delete = await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${made.slug}`, headers: account.headers });
        assert.equal(v2Delete.statusCode, 200);
        const v2 = (await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl() })}`, headers: account.headers })).json();
        assert.equal((await one('DELETE', account, `${BASE_HOST}/${v2.code}`)).statusCode, 200);
        assert.equal((await visit(v2.code)).statusCode, 404);
      });
    });

    describe('errors under /v3', () => {
      it('are JSON for an unknown path and a wrong method', async () => {
        assertErrorShape(await ctx.t.app.inject({ url: '/v3/nothing-here' }), 404, 'E_ROUTE_NOT_FOUND');
        assertErrorShape(await ctx.t.app.inject({ url: '/v3' }), 404, 'E_ROUTE_NOT_FOUND');
        assertErrorShape(await ctx.t.app.inject({ method: 'PUT', url: '/v3/shorten/list' }), 404, 'E_ROUTE_NOT_FOUND');
        assertErrorShape(await ctx.t.app.inject({ method: 'GET', url: '/v3/shorten/bulk' }), 404, 'E_ROUTE_NOT_FOUND');
      });
    });
  });
}
