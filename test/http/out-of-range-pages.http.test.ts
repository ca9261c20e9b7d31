// Page numbers far past the end (found by the property tests: page=1e20 reached SQL as an
// offset no integer column holds, and answered 500) are empty pages on every list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

for (const dialect of dialects) {
  describe(`pages past the end (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    it('GET /v3/shorten/list answers an absurd page with an empty page and the true total', async () => {
      const account = await ctx.t.account();
      await ctx.t.app.inject({ url: '/v3/shorten?url=https%3A%2F%2Fexample.com%2Fpage', headers: account.headers });
      for (const page of ['99999999999999999999', '1e300', '9007199254740993', '4294967297']) {
        const response = await ctx.t.app.inject({ url: `/v3/shorten/list?page=${page}&perPage=500`, headers: account.headers });
        assert.equal(response.statusCode, 200, `page=${page}: ${response.body}`);
        const body = response.json();
        assert.deepEqual(body.links, []);
        assert.equal(body.metadata.total, 1);
      }
    });

    it('GET /v2/shorten-domains does the same', async () => {
      const response = await ctx.t.app.inject({ url: '/v2/shorten-domains?page=99999999999999999999&perPage=500' });
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json().data, []);
    });
  });
}
