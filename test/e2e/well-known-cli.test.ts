// `brief domain well-known set|show|remove` (issue 40, decision 0042) as real processes beside a running server: the
// files the administrator sets are what the domain serves, the default domain included; bad files exit 1 with one line.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { eventually, request, runCli, serverSuite } from '../scale-support/server-process.js';
import { hostRequest } from '../support/process.js';

const SHORT_HOST = 'short.test';
const APPS = 'apps.example';
const AASA = 'apple-app-site-association';
const ASSETLINKS = 'assetlinks.json';
const APPLE_FILE = '{\n  "applinks": { "details": [ { "appIDs": ["ABCDE12345.com.example.app"], "components": [ { "/": "/*" } ] } ] }\n}\n';
const ANDROID_FILE =
  '[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example.app"}}]';

describe('app-link files from the CLI', () => {
  const suite = serverSuite('brief-well-known-cli-', () => ({ BASE_URL: `http://${SHORT_HOST}`, CHANGE_POLL_MS: '100' }));
  const { cli, cliFails } = suite;
  let auth: Record<string, string>;
  const fileOf = (name: string, text: string) => {
    const file = path.join(suite.dir, name);
    fs.writeFileSync(file, text);
    return file;
  };
  const fetchOn = (host: string, name: string) => hostRequest(suite.server.port, host, `/.well-known/${name}`);

  before(async () => {
    await cli('account', 'create', 'alice');
    const token = (await cli('token', 'create', 'alice')).trim().split('\n').at(-1)!;
    auth = { authorization: `Bearer ${token}` };
    await cli('domain', 'add', APPS, '--account', 'alice');
    // The server hears of a domain the CLI added within CHANGE_POLL_MS; until then its Host answers as the default domain.
    assert.ok(await eventually(async () => (await hostRequest(suite.server.port, APPS, '/')).status === 404, 3_000), suite.server.log);
  });

  it('sets a file from a path or standard input; the domain serves it byte for byte, and the API sees it', async () => {
    assert.equal(
      await cli('domain', 'well-known', 'set', 'HTTPS://Apps.example/', AASA, fileOf('aasa.json', APPLE_FILE)),
      `set ${AASA} of ${APPS} (${Buffer.byteLength(APPLE_FILE)} bytes): served at /.well-known/${AASA} on it\n`,
    );
    const piped = await runCli(['domain', 'well-known', 'set', APPS, ASSETLINKS, '-'], suite.env, ANDROID_FILE);
    assert.equal(piped.code, 0, piped.stderr);

    for (const [name, text] of [
      [AASA, APPLE_FILE],
      [ASSETLINKS, ANDROID_FILE],
    ] as const) {
      const served = await fetchOn(APPS, name);
      assert.equal(served.status, 200, served.body);
      assert.equal(served.headers['content-type'], 'application/json');
      assert.equal(served.body, text);
      assert.equal(await cli('domain', 'well-known', 'show', APPS, name), text);
    }
    const listed = (await cli('domain', 'well-known', 'show', APPS)).split('\n');
    assert.match(listed[0]!, /^name\s+bytes\s+updated$/);
    assert.match(listed[1]!, new RegExp(`^${AASA}\\s+${Buffer.byteLength(APPLE_FILE)}\\s+\\d{4}-`));
    assert.match(listed[2]!, new RegExp(`^${ASSETLINKS.replace('.', '\\.')}\\s+${ANDROID_FILE.length}\\s+`));

    const viaApi = await request(suite.server.port, 'GET', `/v3/shorten/domains/${APPS}/well-known/${AASA}`, auth);
    assert.equal(viaApi.body, APPLE_FILE);
  });

  it('refuses a bad file with one line and exit code 1, and keeps the file served', async () => {
    await cliFails(
      /^brief: The apple-app-site-association file must be JSON: /,
      'domain',
      'well-known',
      'set',
      APPS,
      AASA,
      fileOf('bad.json', '{"applinks": [}'),
    );
    await cliFails(
      /^brief: The assetlinks\.json file must be a JSON array/,
      'domain',
      'well-known',
      'set',
      APPS,
      ASSETLINKS,
      fileOf('obj.json', '{}'),
    );
    await cliFails(
      /^brief: The assetlinks\.json file must be at most 65536 bytes \(64 KB\); it is 65537 bytes$/,
      'domain',
      'well-known',
      'set',
      APPS,
      ASSETLINKS,
      fileOf('big.json', `[${' '.repeat(65_535)}]`),
    );
    await cliFails(
      /^brief: cannot read .*missing\.json: no such file$/,
      'domain',
      'well-known',
      'set',
      APPS,
      AASA,
      path.join(suite.dir, 'missing.json'),
    );
    await cliFails(
      /^brief: No such file: a domain carries only apple-app-site-association and assetlinks\.json$/,
      'domain',
      'well-known',
      'set',
      APPS,
      'robots.txt',
      fileOf('r.json', '{}'),
    );
    await cliFails(/^brief: No domain nowhere\.example$/, 'domain', 'well-known', 'set', 'nowhere.example', AASA, fileOf('ok.json', '{}'));
    assert.equal((await fetchOn(APPS, AASA)).body, APPLE_FILE);
  });

  it("sets the default domain's files too (the server's administrator only: the API never reaches them)", async () => {
    await cli('domain', 'well-known', 'set', SHORT_HOST, ASSETLINKS, fileOf('default.json', ANDROID_FILE));
    assert.equal((await fetchOn(SHORT_HOST, ASSETLINKS)).body, ANDROID_FILE);
    const viaApi = await request(suite.server.port, 'PUT', `/v3/shorten/domains/${SHORT_HOST}/well-known/${ASSETLINKS}`, auth, '[]');
    assert.equal(viaApi.status, 404, viaApi.body);
    assert.equal(await cli('domain', 'well-known', 'remove', SHORT_HOST, ASSETLINKS), `removed ${ASSETLINKS} of ${SHORT_HOST}\n`);
    assert.equal((await fetchOn(SHORT_HOST, ASSETLINKS)).status, 404);
  });

  it('removes a file, and all of them with their domain', async () => {
    assert.equal(await cli('domain', 'well-known', 'remove', APPS, ASSETLINKS), `removed ${ASSETLINKS} of ${APPS}\n`);
    assert.equal((await fetchOn(APPS, ASSETLINKS)).status, 404);
    await cliFails(/^brief: apps\.example has no assetlinks\.json$/, 'domain', 'well-known', 'remove', APPS, ASSETLINKS);
    await cliFails(/^brief: apps\.example has no assetlinks\.json$/, 'domain', 'well-known', 'show', APPS, ASSETLINKS);

    await cli('domain', 'remove', APPS);
    assert.equal(await cli('domain', 'well-known', 'show', APPS), '(none)\n');
    assert.equal((await fetchOn(APPS, AASA)).status, 404);
  });
});
