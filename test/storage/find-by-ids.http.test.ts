// A top list of short links names every link clicked in its range: tens of thousands of ids.
// The lookup must take them all (the soak found SQLite's limit of 32,766 bound values exceeded: 500).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

for (const dialect of dialects) {
  describe(`links by id, many at once (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    it('finds the caller’s links among 70,000 ids', async () => {
      const account = await ctx.t.account();
      const made = (await ctx.t.app.inject({ url: '/v3/shorten?url=https%3A%2F%2Fexample.com%2Fmany', headers: account.headers })).json();
      const own = await ctx.t.database.links.findByIds(account.id, [1]);
      assert.ok(Array.isArray(own));
      const ids = Array.from({ length: 70_000 }, (_, i) => i + 1);
      const found = await ctx.t.database.links.findByIds(account.id, ids);
      assert.deepEqual(
        found.map((link) => link.key),
        [made.slug],
      );
    });
  });
}
