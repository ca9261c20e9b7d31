// What a server records for the CLI (migration 0020, decision 0033): the settings store on both dialects, and
// the served domains kept there — recorded by a server, read back by a CLI command whose environment differs,
// which then works on the server's domains and says so; an unreadable record is ignored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { droppedDomains, recordedServedDomains, recordServedDomains, withServedDomains } from '../../src/domains/served-domains.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

for (const dialect of dialects) {
  describe(`server settings (${dialect})`, () => {
    let test: TestDatabase;
    before(async () => {
      test = await openTestDatabase(dialect);
    });
    after(async () => test?.cleanup());

    it('keeps one value a key, replaced whole, and answers the one it replaced', async () => {
      const { settings } = test.database;
      assert.equal(await settings.get('a'), undefined);
      assert.equal(await settings.put('a', 'first'), undefined);
      assert.equal(await settings.get('a'), 'first');
      assert.equal(await settings.put('a', 'second ünïcode'), 'first');
      assert.equal(await settings.get('a'), 'second ünïcode');
      assert.equal(await settings.get('b'), undefined);
      const rows = await test.database.db.selectFrom('server_settings').selectAll().where('key', '=', 'a').execute();
      assert.equal(rows.length, 1);
      assert.ok(Math.abs(Number(rows[0]!.updated_at) - Date.now()) < 60_000);
    });

    it('records the domains a server serves; a CLI with another environment works on those and says so', async () => {
      const { settings } = test.database;
      const server = loadConfig({ BASE_URL: 'https://short.test', PUBLIC_DOMAINS: 'go.test' });
      const cli = loadConfig({});
      // No server yet: the command's own configuration, untouched.
      const first = await withServedDomains(settings, cli);
      assert.equal(first.config, cli);
      assert.equal(first.notice, undefined);

      assert.equal(await recordServedDomains(settings, server), undefined);
      const used = await withServedDomains(settings, cli);
      assert.deepEqual(used.config.defaultDomain, { hostname: 'short.test', urlPrefix: 'https://short.test' });
      assert.deepEqual(
        used.config.publicDomains.map((domain) => domain.urlPrefix),
        ['https://short.test', 'https://go.test'],
      );
      assert.equal(used.config.database, cli.database, 'only the domains change');
      assert.ok(Object.isFrozen(used.config));
      assert.equal(
        used.notice,
        'the server on this database serves BASE_URL https://short.test, PUBLIC_DOMAINS https://go.test (recorded when it started); ' +
          "this environment says BASE_URL http://localhost:3000: using the server's",
      );

      // The same domains (public ones in another order): nothing to say.
      const same = loadConfig({ BASE_URL: 'https://short.test', PUBLIC_DOMAINS: 'go.test,short.test' });
      assert.equal((await withServedDomains(settings, same)).notice, undefined);
      // Another PUBLIC_DOMAINS alone is a difference too.
      const fewer = await withServedDomains(settings, loadConfig({ BASE_URL: 'https://short.test' }));
      assert.match(fewer.notice ?? '', /this environment says BASE_URL https:\/\/short\.test: using the server's$/);

      // A server that starts again with another BASE_URL replaces the record, and learns what it dropped.
      const before = await recordServedDomains(settings, loadConfig({ BASE_URL: 'https://new.test', PUBLIC_DOMAINS: 'go.test' }));
      assert.deepEqual(droppedDomains(before!, loadConfig({ BASE_URL: 'https://new.test', PUBLIC_DOMAINS: 'go.test' })), ['short.test']);
      assert.equal((await recordedServedDomains(settings))?.defaultDomain.urlPrefix, 'https://new.test');
    });

    it('ignores a record it cannot read (the environment is used)', async () => {
      const { settings } = test.database;
      const cli = loadConfig({});
      for (const value of [
        'not json',
        '{}',
        '{"defaultDomain":{"hostname":"a.test","urlPrefix":"ftp://a.test"},"publicDomains":[{"hostname":"a.test","urlPrefix":"ftp://a.test"}]}',
        '{"defaultDomain":{"hostname":"a.test","urlPrefix":"http://b.test"},"publicDomains":[{"hostname":"a.test","urlPrefix":"http://b.test"}]}',
        '{"defaultDomain":{"hostname":"a.test","urlPrefix":"http://a.test/x"},"publicDomains":[]}',
      ]) {
        await settings.put('served_domains', value);
        const used = await withServedDomains(settings, cli);
        assert.equal(used.config, cli, value);
        assert.equal(used.notice, undefined);
      }
    });
  });
}
