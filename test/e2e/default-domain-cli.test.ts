// One default domain for the server and the CLI (issue 37, item 9; decision 0033), as real processes: a server
// records the domains it serves when it starts; a CLI command run without the server's PORT / BASE_URL (or
// with others) then puts links on the server's domain, which the server answers, and prints invitation links
// on its address, saying so in one line on stderr. A link never goes on a domain the server does not serve.
// On a database no server has started on, the CLI uses its own environment. SQLite, and PostgreSQL when
// TEST_DATABASE_URL is set.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, request, runCli, ServerProcess } from '../scale-support/server-process.js';
import { dialects, openTestDatabase, type TestDatabase } from '../support/database.js';

const NOTICE =
  /^brief: the server on this database serves BASE_URL http:\/\/short\.test \(recorded when it started\); this environment says BASE_URL (\S+): using the server's$/;

for (const dialect of dialects) {
  describe(`the CLI uses the default domain of the server on its database (${dialect})`, () => {
    let test: TestDatabase;
    let dir: string;
    let server: ServerProcess | undefined;
    /** The server's environment, and a CLI's that lacks its BASE_URL (so it would say http://localhost:3000). */
    let serverEnv: Record<string, string>;
    let bare: Record<string, string>;

    const cli = async (env: Record<string, string>, args: string[], input?: string) => {
      const result = await runCli(args, env, input);
      assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
      return result;
    };
    const file = (name: string, text: string) => {
      const at = path.join(dir, name);
      fs.writeFileSync(at, text);
      return at;
    };
    const recorded = () => test.database.settings.get('served_domains');
    const startServer = async (env: Record<string, string>) => {
      const started = await ServerProcess.start(env);
      server = started;
      // Recorded just after it listens: wait for this server's record, not the one before.
      const base = env.BASE_URL!;
      assert.ok(
        await eventually(async () => (await recorded())?.includes(`"urlPrefix":"${base}"`) === true, 5000),
        'the server recorded its domains',
      );
      return started;
    };

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-default-domain-'));
      test = await openTestDatabase(dialect);
      serverEnv = { DATABASE_URL: test.url, BASE_URL: 'http://short.test' };
      bare = { DATABASE_URL: test.url };
    });
    after(async () => {
      await server?.stop();
      await test?.cleanup();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('uses its own environment on a database no server has started on, and says nothing', async () => {
      assert.equal(await recorded(), undefined);
      const listed = await cli(bare, ['domain', 'list']);
      assert.match(listed.stdout, /^localhost:3000\s+http:\/\/localhost:3000\s+public/m);
      assert.equal(listed.stderr, '');
      const invited = await cli({ ...bare, BASE_URL: 'http://cli.test' }, ['user', 'create', 'early@example.com']);
      assert.match(invited.stdout.trim().split('\n').at(-1)!, /^http:\/\/cli\.test\/app\/invitation#brf_/);
      assert.equal(invited.stderr, '');
    });

    it("imports without --domain onto the server's domain, which the server answers, and says so on stderr", async () => {
      await startServer(serverEnv);
      const visit = () => request(server!.port, 'GET', '/moved', { host: 'short.test' });
      assert.equal((await visit()).status, 404);
      const csv = file('one.csv', 'keyword,url,title,timestamp,ip,clicks\nmoved,https://example.com/moved,Moved,2020-01-01 00:00:00,127.0.0.1,0\n');
      const result = await cli(bare, ['import', csv, '--format', 'yourls']);
      assert.match(result.stdout, /imported 1, skipped 0 imported before, 0 could not be imported/);
      assert.match(result.stderr.trim(), NOTICE);
      assert.equal(NOTICE.exec(result.stderr.trim())![1], 'http://localhost:3000', 'the notice names both addresses');
      assert.equal(result.stderr.trim().split('\n').length, 1, 'one line');
      const stored = await test.database.db.selectFrom('links').select('domain').where('key', '=', 'moved').execute();
      assert.deepEqual(stored, [{ domain: 'short.test' }]);
      const redirected = await eventually(async () => (await visit()).headers.location === 'https://example.com/moved', 5000);
      assert.ok(redirected, 'the running server answers the imported link');

      // The other commands see the server's domains too: the list, and a bare key's default domain.
      const listed = await cli(bare, ['domain', 'list']);
      assert.match(listed.stdout, /^short\.test\s+http:\/\/short\.test\s+public/m);
      assert.doesNotMatch(listed.stdout, /localhost:3000/);
      assert.match(listed.stderr.trim(), NOTICE);
      const shown = JSON.parse((await cli(bare, ['link', 'show', 'moved'])).stdout);
      assert.equal(shown.shortened, 'http://short.test/moved');
    });

    it('puts no link on a domain the server does not serve: a row naming the environment’s own default is refused', async () => {
      const row = {
        domain: 'localhost:3000',
        key: 'elsewhere',
        isSlug: true,
        url: 'https://example.com/elsewhere',
        owner: 'anonymous',
        created: '2024-01-01T00:00:00.000Z',
        status: 'public',
      };
      const result = await cli(bare, ['import', file('elsewhere.jsonl', `${JSON.stringify(row)}\n`), '--format', 'brief']);
      assert.match(result.stdout, /imported 0, skipped 0 imported before, 1 could not be imported/);
      assert.match(result.stderr, /^line 1: its domain localhost:3000 is not a short domain here/m);
      const stored = await test.database.db.selectFrom('links').select('domain').where('key', '=', 'elsewhere').execute();
      assert.deepEqual(stored, []);
    });

    it("prints an invitation link on the server's address, which the server accepts", async () => {
      const other = { ...bare, BASE_URL: 'http://other.test:8080' };
      const result = await cli(other, ['user', 'create', 'ada@example.com']);
      assert.equal(NOTICE.exec(result.stderr.trim())?.[1], 'http://other.test:8080', result.stderr);
      const link = result.stdout.trim().split('\n').at(-1)!;
      assert.match(link, /^http:\/\/short\.test\/app\/invitation#brf_/);
      const accepted = await request(
        server!.port,
        'POST',
        '/auth/invitation/accept',
        { 'content-type': 'application/json', host: 'short.test', origin: 'http://short.test' },
        JSON.stringify({ token: link.slice(link.indexOf('#') + 1), password: 'a very good password' }),
      );
      assert.equal(accepted.status, 200, accepted.body);
    });

    it("says nothing when the command's environment names the server's domains", async () => {
      const result = await cli(serverEnv, ['domain', 'list']);
      assert.equal(result.stderr, '');
      assert.match(result.stdout, /^short\.test\s/m);
    });

    it('follows the server when it starts again with another BASE_URL (and the server warns of the domain it dropped)', async () => {
      await server!.stop();
      const moved = await startServer({ ...serverEnv, BASE_URL: 'http://new.test' });
      const dropped = /this server does not serve short\.test, which the last one to start on this database did/;
      assert.ok(await eventually(async () => dropped.test(moved.log), 5000), moved.log);
      const result = await cli(bare, ['domain', 'list']);
      assert.match(result.stdout, /^new\.test\s+http:\/\/new\.test\s+public/m);
      assert.match(
        result.stderr.trim(),
        /^brief: the server on this database serves BASE_URL http:\/\/new\.test .*this environment says BASE_URL http:\/\/localhost:3000/,
      );
    });
  });
}
