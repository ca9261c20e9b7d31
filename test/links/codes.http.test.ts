// Slugs and generated codes share one namespace per domain (decision 0026; the store's side is
// test/storage/link-namespace.test.ts): a slug of exactly CODE_LENGTH letters and digits, the shape of a code,
// is refused at the API, on every dialect.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

for (const dialect of dialects) {
  describe(`slugs of the code shape over HTTP (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    it('refuses a slug of exactly CODE_LENGTH letters and digits, takes one a character shorter or longer', async () => {
      const shorten = (slug: string) =>
        ctx.t.app.inject({ url: `/v2/shorten?url=${encodeURIComponent(`https://example.com/${slug}`)}&slug=${slug}` });
      const refused = await shorten('Abc1234');
      assert.equal(refused.statusCode, 422, refused.body);
      assert.match(refused.body, /codeShape|letters and digits/);
      assert.equal((await shorten('Abc123')).statusCode, 200);
      assert.equal((await shorten('Abc12345')).statusCode, 200);
      assert.equal((await shorten('Abc-234')).statusCode, 200);
    });
  });
}
