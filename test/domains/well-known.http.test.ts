// App links per domain (issue 40, decision 0042): the v3 calls on a private domain's `/.well-known/` files, who may
// make them, what a file must be, and how the domain its Host names serves them. On both dialects.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { WellKnownService } from '../../src/domains/well-known-service.js';
import { NOT_FOUND_PAGE } from '../../src/html/pages.js';
import { BASE_HOST, buildTestApp, eventually, PUBLIC_HOST, qs, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';

const AASA = 'apple-app-site-association';
const ASSETLINKS = 'assetlinks.json';
/** Spacing, key order and a non-ASCII character of their own: what is served must be these bytes, not a re-serialization. */
const APPLE_FILE = '{\n  "applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/*"}]}]},\n  "note": "café"\n}\n';
const ANDROID_FILE =
  '[{"relation":["delegate_permission/common.handle_all_urls"],' +
  '"target":{"namespace":"android_app","package_name":"com.example.app","sha256_cert_fingerprints":["14:6D:E9"]}}]';

type Response = { statusCode: number; headers: Record<string, unknown>; body: string; json(): any };

function assertError(res: Response, status: number, code: string, field?: { field: string; rule: string; message?: RegExp }) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.code, code, res.body);
  if (field) {
    assert.equal(body.errors[0].field, field.field, res.body);
    assert.equal(body.errors[0].rule, field.rule, res.body);
    if (field.message) assert.match(body.errors[0].message, field.message);
  }
}

function assertNotFoundPage(res: Response) {
  assert.equal(res.statusCode, 404, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.equal(res.body, NOT_FOUND_PAGE);
}

for (const dialect of dialects) {
  describe(`app links: a domain's /.well-known/ files (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let owner: TestAccount;
    let other: TestAccount;
    /** Verified private domains (an administrator's, as `brief domain add`), known to the app. */
    let mine: string;
    let theirs: string;

    before(async () => {
      owner = await ctx.t.account('owner');
      other = await ctx.t.account('other');
      mine = await ctx.t.privateDomain(owner.id, 'links');
      theirs = await ctx.t.privateDomain(other.id, 'theirs');
    });

    const path = (domain: string, name?: string) =>
      `/v3/shorten/domains/${encodeURIComponent(domain)}/well-known${name === undefined ? '' : `/${name}`}`;
    const put = (headers: Record<string, string>, domain: string, name: string, body: string, type = 'application/json') =>
      ctx.t.app.inject({ method: 'PUT', url: path(domain, name), headers: { ...headers, 'content-type': type }, payload: body });
    const get = (headers: Record<string, string>, domain: string, name?: string) => ctx.t.app.inject({ url: path(domain, name), headers });
    const remove = (headers: Record<string, string>, domain: string, name: string) =>
      ctx.t.app.inject({ method: 'DELETE', url: path(domain, name), headers });
    const fetchOn = (host: string, name: string, method: 'GET' | 'HEAD' = 'GET') =>
      ctx.t.app.inject({ method, url: `/.well-known/${name}`, headers: { host } });
    /** A token of the owner's workspace with a role or scopes of its own. */
    const tokenOf = async (options: { role?: string; scopes?: string[] }) => {
      const { token } = await ctx.t.tokens.createToken(owner.name, options);
      return { authorization: `Bearer ${token}` };
    };
    /** The CLI's service (`brief domain well-known`), on the same database. */
    const admin = () => new WellKnownService(ctx.t.domains, ctx.t.database.wellKnown);

    it('uploads, reads back byte for byte, lists, replaces and removes a file', async () => {
      const domain = await ctx.t.privateDomain(owner.id, 'cycle');
      assert.deepEqual((await get(owner.headers, domain)).json(), []);

      const made = await put(owner.headers, domain, AASA, APPLE_FILE);
      assert.equal(made.statusCode, 200, made.body);
      const entry = made.json();
      assert.deepEqual(Object.keys(entry).sort(), ['bytes', 'name', 'updatedAt']);
      assert.equal(entry.name, AASA);
      assert.equal(entry.bytes, Buffer.byteLength(APPLE_FILE));
      assert.ok(Math.abs(Date.parse(entry.updatedAt) - Date.now()) < 60_000, entry.updatedAt);

      const read = await get(owner.headers, domain, AASA);
      assert.equal(read.statusCode, 200, read.body);
      assert.match(String(read.headers['content-type']), /^application\/json/);
      assert.equal(read.body, APPLE_FILE);

      assert.equal((await put(owner.headers, domain, ASSETLINKS, ANDROID_FILE, 'text/plain')).statusCode, 200);
      assert.deepEqual(
        (await get(owner.headers, domain)).json().map((file: { name: string; bytes: number }) => [file.name, file.bytes]),
        [
          [AASA, Buffer.byteLength(APPLE_FILE)],
          [ASSETLINKS, ANDROID_FILE.length],
        ],
      );

      const replaced = '{"applinks":{"details":[]}}';
      assert.equal((await put(owner.headers, domain, AASA, replaced)).statusCode, 200);
      assert.equal((await get(owner.headers, domain, AASA)).body, replaced);

      const removed = await remove(owner.headers, domain, AASA);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(removed.json(), { success: true });
      assertError(await get(owner.headers, domain, AASA), 404, 'E_NOT_FOUND');
      assertError(await remove(owner.headers, domain, AASA), 404, 'E_NOT_FOUND');
      assert.deepEqual(
        (await get(owner.headers, domain)).json().map((file: { name: string }) => file.name),
        [ASSETLINKS],
      );
    });

    it('takes up to 64 KB and refuses one byte more with a 422 naming the file and the limit', async () => {
      const fits = `[${' '.repeat(65_536 - 2)}]`;
      assert.equal(Buffer.byteLength(fits), 65_536);
      const ok = await put(owner.headers, mine, ASSETLINKS, fits);
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().bytes, 65_536);
      const over = await put(owner.headers, mine, ASSETLINKS, `[${' '.repeat(65_536 - 1)}]`);
      assertError(over, 422, 'E_VALIDATION_ERROR', {
        field: ASSETLINKS,
        rule: 'maxBytes',
        message: /at most 65536 bytes \(64 KB\); it is 65537 bytes/,
      });
      // Counted in bytes, not characters: 'é' is two.
      const wide = await put(owner.headers, mine, ASSETLINKS, `["${'é'.repeat(32_767)}"]`);
      assertError(wide, 422, 'E_VALIDATION_ERROR', { field: ASSETLINKS, rule: 'maxBytes' });
      assert.equal((await get(owner.headers, mine, ASSETLINKS)).body, fits, 'the refused uploads changed nothing');
    });

    it('refuses what is not JSON, and JSON of the wrong kind, saying which kind the file needs', async () => {
      assertError(await put(owner.headers, mine, AASA, '{"applinks": '), 422, 'E_VALIDATION_ERROR', {
        field: AASA,
        rule: 'json',
        message: /^The apple-app-site-association file must be JSON: /,
      });
      assertError(await put(owner.headers, mine, AASA, ''), 422, 'E_VALIDATION_ERROR', { field: AASA, rule: 'json', message: /empty/ });
      assertError(await put(owner.headers, mine, AASA, '\u0000'), 422, 'E_VALIDATION_ERROR', { field: AASA, rule: 'json' });
      for (const body of [ANDROID_FILE, 'null', '"text"', '42']) {
        assertError(await put(owner.headers, mine, AASA, body), 422, 'E_VALIDATION_ERROR', {
          field: AASA,
          rule: 'object',
          message: /must be a JSON object/,
        });
      }
      for (const body of [APPLE_FILE, 'null', 'true']) {
        assertError(await put(owner.headers, mine, ASSETLINKS, body), 422, 'E_VALIDATION_ERROR', {
          field: ASSETLINKS,
          rule: 'array',
          message: /must be a JSON array/,
        });
      }
    });

    it('answers 404 to any other file name', async () => {
      for (const name of ['robots.txt', 'assetlinks', 'Apple-App-Site-Association', 'security.txt']) {
        assertError(await put(owner.headers, mine, name, '{}'), 404, 'E_NOT_FOUND');
        assertError(await get(owner.headers, mine, name), 404, 'E_NOT_FOUND');
        assertError(await remove(owner.headers, mine, name), 404, 'E_NOT_FOUND');
      }
    });

    it("answers 404 on another workspace's domain, a public domain and an unknown one, and changes nothing there", async () => {
      assert.equal((await put(other.headers, theirs, AASA, APPLE_FILE)).statusCode, 200);
      const storedPublic = (await ctx.t.domains.add(`${uniqueName('public').toLowerCase()}.example`, null)).hostname;
      for (const domain of [theirs, BASE_HOST, PUBLIC_HOST, storedPublic, 'nobody.example', 'not a host']) {
        assertError(await put(owner.headers, domain, AASA, '{"applinks":{}}'), 404, 'E_NOT_FOUND');
        assertError(await get(owner.headers, domain, AASA), 404, 'E_NOT_FOUND');
        assertError(await get(owner.headers, domain), 404, 'E_NOT_FOUND');
        assertError(await remove(owner.headers, domain, AASA), 404, 'E_NOT_FOUND');
      }
      assert.equal((await get(other.headers, theirs, AASA)).body, APPLE_FILE);
    });

    it('lets a member read the files but not change them (403: the admin role or above)', async () => {
      await put(owner.headers, mine, AASA, APPLE_FILE);
      const member = await tokenOf({ role: 'member' });
      assert.equal((await get(member, mine, AASA)).body, APPLE_FILE);
      assert.equal((await get(member, mine)).statusCode, 200);
      assertError(await put(member, mine, AASA, '{"applinks":{}}'), 403, 'E_FORBIDDEN');
      assertError(await remove(member, mine, AASA), 403, 'E_FORBIDDEN');
      assert.equal((await get(owner.headers, mine, AASA)).body, APPLE_FILE);
      const adminToken = await tokenOf({ role: 'admin' });
      assert.equal((await put(adminToken, mine, AASA, APPLE_FILE)).statusCode, 200);
    });

    it('needs the domains:write scope to change a file, links:read to read one', async () => {
      await put(owner.headers, mine, AASA, APPLE_FILE);
      const reader = await tokenOf({ scopes: ['links:read'] });
      assert.equal((await get(reader, mine, AASA)).statusCode, 200);
      const put403 = await put(reader, mine, AASA, '{"applinks":{}}');
      assertError(put403, 403, 'E_FORBIDDEN');
      assert.match(put403.json().message, /domains:write/);
      assertError(await remove(reader, mine, AASA), 403, 'E_FORBIDDEN');
      const writer = await tokenOf({ scopes: ['domains:write'] });
      assertError(await get(writer, mine, AASA), 403, 'E_FORBIDDEN');
      assert.equal((await put(writer, mine, AASA, APPLE_FILE)).statusCode, 200);
      assert.equal((await ctx.t.app.inject({ method: 'PUT', url: path(mine, AASA), payload: '{}' })).statusCode, 401);
    });

    it('serves the file on its domain: application/json, the bytes uploaded, a short max-age; HEAD too', async () => {
      const domain = await ctx.t.privateDomain(owner.id, 'served');
      await put(owner.headers, domain, AASA, APPLE_FILE);
      await put(owner.headers, domain, ASSETLINKS, ANDROID_FILE);
      for (const [name, file] of [
        [AASA, APPLE_FILE],
        [ASSETLINKS, ANDROID_FILE],
      ] as const) {
        const res = await fetchOn(domain.toUpperCase(), name);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.headers['content-type'], 'application/json');
        assert.equal(res.headers['cache-control'], 'public, max-age=300');
        assert.equal(res.body, file);
        assert.equal(Number(res.headers['content-length']), Buffer.byteLength(file));
        const head = await fetchOn(domain, name, 'HEAD');
        assert.equal(head.statusCode, 200);
        assert.equal(head.headers['content-type'], 'application/json');
        assert.equal(head.body, '');
      }
      // A file removed is gone at once: nothing is cached.
      await remove(owner.headers, domain, ASSETLINKS);
      assertNotFoundPage(await fetchOn(domain, ASSETLINKS));
      assert.equal((await fetchOn(domain, ASSETLINKS, 'HEAD')).statusCode, 404);
    });

    it("answers the 404 page where the domain has none, and another domain's Host never gets the file", async () => {
      const domain = await ctx.t.privateDomain(owner.id, 'alone');
      await put(owner.headers, domain, ASSETLINKS, ANDROID_FILE);
      assertNotFoundPage(await fetchOn(domain, AASA));
      for (const host of [theirs, BASE_HOST, PUBLIC_HOST, 'stranger.example']) assertNotFoundPage(await fetchOn(host, ASSETLINKS));
      assertNotFoundPage(await ctx.t.app.inject({ url: '/.well-known/security.txt', headers: { host: domain } }));
    });

    it('serves nothing for a claim not verified yet, though its owner may upload the files beforehand', async () => {
      const claim = `${uniqueName('claim').toLowerCase()}.example`;
      assert.equal(
        (await ctx.t.app.inject({ method: 'PUT', url: '/v3/shorten/domains', headers: owner.headers, payload: { domain: claim } })).statusCode,
        200,
      );
      assert.equal((await put(owner.headers, claim, AASA, APPLE_FILE)).statusCode, 200);
      assertNotFoundPage(await fetchOn(claim, AASA));
      // As the redirect side would ask with STRICT_HOSTS on (the Host kept as it is): still nothing.
      assert.equal(await admin().served(claim, AASA), undefined);
      await ctx.t.domains.verify(claim);
      assert.equal(await admin().served(claim, AASA), APPLE_FILE);
      assert.ok(await eventually(async () => (await fetchOn(claim, AASA)).statusCode === 200));
    });

    it("serves the default domain's files, set by the server's administrator, there and on a Host that is no domain", async () => {
      await assert.rejects(admin().put('nobody.example', AASA, APPLE_FILE), /No domain nobody\.example/);
      await admin().put(BASE_HOST, AASA, APPLE_FILE);
      try {
        assert.equal((await fetchOn(BASE_HOST, AASA)).body, APPLE_FILE);
        // Decision 0015: a Host that is no short domain is answered as the default domain.
        assert.equal((await fetchOn('stranger.example', AASA)).body, APPLE_FILE);
        assertNotFoundPage(await fetchOn(PUBLIC_HOST, AASA));
      } finally {
        await admin().remove(BASE_HOST, AASA);
      }
      assertNotFoundPage(await fetchOn(BASE_HOST, AASA));
    });

    it('removes the files with their domain, so a later claim of the name serves none of them', async () => {
      for (const withLinks of [false, true]) {
        const domain = await ctx.t.privateDomain(owner.id, 'gone');
        await put(owner.headers, domain, AASA, APPLE_FILE);
        await put(owner.headers, domain, ASSETLINKS, ANDROID_FILE);
        await ctx.t.domains.remove(domain, withLinks);
        const rows = await ctx.t.database.db.selectFrom('domain_well_known').select('name').where('domain', '=', domain).execute();
        assert.deepEqual(rows, [], `removed ${withLinks ? 'with' : 'without'} links`);
        await ctx.t.domains.add(domain, other.id);
        assert.deepEqual((await get(other.headers, domain)).json(), []);
      }
    });

    it('is served by every instance at once: another app on the same database reads the file from it', async () => {
      const second = await buildTestApp(ctx.db.database);
      try {
        const domain = await ctx.t.privateDomain(owner.id, 'shared');
        assert.ok(await eventually(async () => (await second.app.inject({ url: '/', headers: { host: domain } })).statusCode === 404));
        const onSecond = () => second.app.inject({ url: `/.well-known/${AASA}`, headers: { host: domain } });
        assertNotFoundPage(await onSecond());
        await put(owner.headers, domain, AASA, APPLE_FILE);
        assert.equal((await onSecond()).body, APPLE_FILE);
        await remove(owner.headers, domain, AASA);
        assertNotFoundPage(await onSecond());
      } finally {
        await second.close();
      }
    });

    it('never takes `.well-known` as a slug: the path stays the files’', async () => {
      for (const slug of ['.well-known', '.WELL-KNOWN']) {
        const res = await ctx.t.app.inject({
          url: `/v3/shorten?${qs({ url: 'https://example.com/app', slug, domain: mine })}`,
          headers: owner.headers,
        });
        assertError(res, 422, 'E_VALIDATION_ERROR', { field: 'slug', rule: 'regex' });
      }
    });
  });
}

describe('app links: the files are fetched under the read limit, per address', () => {
  const ctx = useTestApp('sqlite', { RATE_LIMIT_READ: '2' });

  it('answers 429 past RATE_LIMIT_READ a minute from one address, and counts another address apart', async () => {
    const owner = await ctx.t.account('limited');
    const domain = await ctx.t.privateDomain(owner.id, 'limited');
    await new WellKnownService(ctx.t.domains, ctx.t.database.wellKnown).put(domain, ASSETLINKS, ANDROID_FILE);
    const fetchFrom = (remoteAddress: string) => ctx.t.app.inject({ url: `/.well-known/${ASSETLINKS}`, headers: { host: domain }, remoteAddress });
    for (let i = 0; i < 2; i++) assert.equal((await fetchFrom('192.0.2.80')).body, ANDROID_FILE);
    assertError(await fetchFrom('192.0.2.80'), 429, 'E_TOO_MANY_REQUESTS');
    assert.equal((await fetchFrom('192.0.2.81')).statusCode, 200);
  });
});
