// A link's card for preview fetchers in the v3 API (issue 40, decision 0041), on both dialects: `preview` on bulk items,
// get, list and PATCH (replacing the card whole; null removes it), always present in answers; bad cards are 422s naming
// the part (`preview.image`, `0.preview.title` in a bulk request), never a 500; a card takes a link out of dedupe.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BASE_HOST, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const blockDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-previews-'));
fs.writeFileSync(path.join(blockDir, 'blocklist.txt'), 'blocked.example\n');
after(() => fs.rmSync(blockDir, { recursive: true, force: true }));

const CARD = { title: 'Spring sale', description: 'Until Sunday, everywhere.', image: 'https://img.example.com/sale.jpg' };
let counter = 0;
const fresh = () => `https://example.com/card/${Date.now()}-${++counter}`;

for (const dialect of dialects) {
  describe(`link previews in the v3 API (${dialect})`, () => {
    const ctx = useTestApp(dialect, { BLOCKLIST_FILE: path.join(blockDir, 'blocklist.txt') });
    const bulk = (account: TestAccount, items: unknown[]) =>
      ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: account.headers, payload: items });
    const make = async (account: TestAccount, item: Record<string, unknown>) => {
      const res = await bulk(account, [item]);
      assert.equal(res.statusCode, 200, res.body);
      return res.json()[0] as { slug: string; url: string };
    };
    const get = (account: TestAccount, slug: string) =>
      ctx.t.app.inject({ method: 'GET', url: `/v3/shorten/${BASE_HOST}/${slug}`, headers: account.headers });
    const patch = (account: TestAccount, slug: string, payload: Record<string, unknown>) =>
      ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${BASE_HOST}/${slug}`, headers: account.headers, payload });
    const fieldsOf = (body: string) => (JSON.parse(body).errors as Array<{ field: string }>).map((error) => error.field);

    it('keeps a card made with the link, answers it on get and in the list, null on a link without one', async () => {
      const account = await ctx.t.account('preview-make');
      const carded = await make(account, { url: fresh(), preview: CARD });
      const plain = await make(account, { url: fresh() });
      const got = await get(account, carded.slug);
      assert.equal(got.statusCode, 200, got.body);
      assert.deepEqual(got.json().preview, CARD);
      assert.equal((await get(account, plain.slug)).json().preview, null);
      const titleOnly = await make(account, { url: fresh(), preview: { title: 'Just a title', description: '', image: null } });
      assert.deepEqual((await get(account, titleOnly.slug)).json().preview, { title: 'Just a title', description: null, image: null });
      const list = await ctx.t.app.inject({ method: 'GET', url: '/v3/shorten/list?perPage=50', headers: account.headers });
      assert.equal(list.statusCode, 200, list.body);
      const bySlug = new Map((list.json().links as Array<{ slug: string; preview: unknown }>).map((link) => [link.slug, link.preview]));
      assert.deepEqual(bySlug.get(carded.slug), CARD);
      assert.equal(bySlug.get(plain.slug), null);
    });

    it('replaces the card whole on PATCH, and removes it with null', async () => {
      const account = await ctx.t.account('preview-patch');
      const link = await make(account, { url: fresh() });
      const set = await patch(account, link.slug, { preview: CARD });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(set.json().preview, CARD);
      const replaced = await patch(account, link.slug, { preview: { title: 'Another title' } });
      assert.equal(replaced.statusCode, 200, replaced.body);
      assert.deepEqual(replaced.json().preview, { title: 'Another title', description: null, image: null }, 'replaced, not merged');
      const other = await patch(account, link.slug, { comment: 'a note' });
      assert.deepEqual(other.json().preview, { title: 'Another title', description: null, image: null }, 'an edit without it keeps it');
      const removed = await patch(account, link.slug, { preview: null });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.equal(removed.json().preview, null);
      assert.equal((await get(account, link.slug)).json().preview, null);
    });

    it('refuses a card without a title, with an http image, too long or of the wrong type: 422 naming the part', async () => {
      const account = await ctx.t.account('preview-bad');
      const link = await make(account, { url: fresh() });
      const cases: Array<[unknown, string[]]> = [
        [{ description: 'no title' }, ['preview.title']],
        [{ title: '' }, ['preview.title']],
        [{ title: 'x'.repeat(513) }, ['preview.title']],
        [{ title: 'ok', description: 'd'.repeat(1025) }, ['preview.description']],
        [{ title: 'ok', image: 'http://img.example.com/a.jpg' }, ['preview.image']],
        [{ title: 'ok', image: 'not a url' }, ['preview.image']],
        [{ title: 'ok', image: 'ftp://img.example.com/a.jpg' }, ['preview.image']],
        [{ title: 'ok', image: 'https://user:secret@img.example.com/a.jpg' }, ['preview.image']],
        [{ title: 'bad\u0000title' }, ['preview.title']],
        [{ title: '', image: 'http://img.example.com/a.jpg' }, ['preview.title', 'preview.image']],
        ['a card', ['preview']],
        [[{ title: 'ok' }], ['preview']],
        [{ title: { text: 'ok' } }, ['preview.title']],
      ];
      for (const [preview, fields] of cases) {
        const res = await patch(account, link.slug, { preview });
        assert.equal(res.statusCode, 422, `${JSON.stringify(preview)}: ${res.body}`);
        assert.deepEqual(fieldsOf(res.body), fields, JSON.stringify(preview));
      }
      // A bulk item is checked without type coercion: a number is no title there either.
      for (const [preview, fields] of [...cases, [{ title: 42 }, ['preview.title']] as [unknown, string[]]]) {
        const res = await bulk(account, [{ url: fresh() }, { url: fresh(), preview }]);
        assert.equal(res.statusCode, 422, `${JSON.stringify(preview)}: ${res.body}`);
        assert.deepEqual(
          fieldsOf(res.body),
          fields.map((field) => `1.${field}`),
          JSON.stringify(preview),
        );
      }
      const message = (await patch(account, link.slug, { preview: { title: 'ok', image: 'http://img.example.com/a.jpg' } })).json().message;
      assert.equal(message, 'The preview.image field must be an https URL');
      assert.equal((await get(account, link.slug)).json().preview, null, 'nothing was changed');
    });

    it('refuses an image on a blocked host, naming it', async () => {
      const account = await ctx.t.account('preview-blocked');
      const res = await bulk(account, [{ url: fresh(), preview: { title: 'ok', image: 'https://cdn.blocked.example/a.jpg' } }]);
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.json()[0].message, /preview\.image field points to a blocked host/);
      const link = await make(account, { url: fresh() });
      const edit = await patch(account, link.slug, { preview: { title: 'ok', image: 'https://blocked.example/a.jpg' } });
      assert.equal(edit.statusCode, 422, edit.body);
      assert.deepEqual(fieldsOf(edit.body), ['preview.image']);
    });

    it('takes a link with a card out of dedupe: never reused, and an edit that adds one takes the link out', async () => {
      const account = await ctx.t.account('preview-dedupe');
      const url = fresh();
      const first = await make(account, { url, reuseExisting: true });
      const carded = await make(account, { url, reuseExisting: true, preview: CARD });
      assert.notEqual(carded.slug, first.slug, 'a link with a card is a new one');
      assert.equal((await make(account, { url, reuseExisting: true })).slug, first.slug);
      assert.equal((await patch(account, first.slug, { preview: CARD })).statusCode, 200);
      const after = await make(account, { url, reuseExisting: true });
      assert.notEqual(after.slug, first.slug, 'the link with a card is no longer the one to reuse');
    });
  });
}
