// The v3 domain calls (docs/api/v3.md, "Domains") and the redirects a
// domain's settings drive: `/` to its home page, an unknown key to its not-found page.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { workspaceUuid } from '../../src/accounts/ids.js';
import { NOT_FOUND_PAGE } from '../../src/html/pages.js';
import { BASE_HOST, eventually, PUBLIC_HOST, qs, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { hostRequest } from '../support/process.js';

type Response = { statusCode: number; headers: Record<string, unknown>; body: string; json(): any };

function assertError(res: Response, status: number, code: string, expected?: { field: string; rule?: string; message?: string | RegExp }) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = res.json();
  assert.equal(body.code, code, res.body);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
  if (code === 'E_VALIDATION_ERROR') {
    assert.deepEqual(Object.keys(body).sort(), ['code', 'errors', 'message']);
    assert.ok(Array.isArray(body.errors) && body.errors.length > 0);
    for (const error of body.errors) assert.deepEqual(Object.keys(error).sort(), ['field', 'message', 'rule']);
    assert.equal(body.message, body.errors[0].message);
  } else {
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
  }
  if (expected) {
    const [first] = body.errors;
    assert.equal(first.field, expected.field, res.body);
    if (expected.rule) assert.equal(first.rule, expected.rule, res.body);
    if (typeof expected.message === 'string') assert.equal(first.message, expected.message);
    else if (expected.message) assert.match(first.message, expected.message);
  }
}

function assertRedirect(res: Response, location: string) {
  assert.equal(res.statusCode, 302, res.body);
  assert.equal(res.headers.location, location);
  assert.equal(res.headers['cache-control'], 'no-store');
  assert.equal(res.body, '');
}

function assertNotFoundPage(res: Response) {
  assert.equal(res.statusCode, 404);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  assert.equal(res.body, NOT_FOUND_PAGE);
}

const TAKEN = { field: 'domain', rule: 'unique', message: 'The domain has already been taken' };
const CLAIMED = {
  field: 'domain',
  rule: 'unique',
  message: "The domain has already been claimed by another account; if it is yours, ask this server's administrator",
};
const PUBLIC = { field: 'domain', rule: 'public' };
/** The fields of a domain claimed through the API and not verified yet, as `answered` shows them (its value is random). */
function unverified(domain: string, answered: any) {
  const value = answered?.verification?.value;
  assert.match(String(value), /^brief-verify=[A-Za-z0-9_-]{24}$/);
  return { verified: false, verification: { type: 'TXT', record: `_brief-verify.${domain.replace(/:\d+$/, '')}`, value } };
}
const newHost = (prefix = 'v3d') => `${uniqueName(prefix).toLowerCase()}.example`;
let counter = 0;
const freshUrl = () => `https://example.com/v3-domains/${Date.now()}-${++counter}`;

for (const dialect of dialects) {
  describe(`v3 domains (${dialect})`, () => {
    // No poll worth the name: whatever this instance shows at once, it shows because it acted on its own change.
    const ctx = useTestApp(dialect, { CHANGE_POLL_MS: '60000' });
    let owner: TestAccount;
    let other: TestAccount;
    let theirs: string;
    let storedPublic: string;

    before(async () => {
      owner = await ctx.t.account('owner');
      other = await ctx.t.account('other');
      theirs = await ctx.t.privateDomain(other.id, 'theirs');
      storedPublic = (await ctx.t.domains.add(newHost('public'), null)).hostname;
    });

    const call = (method: 'GET' | 'PUT' | 'DELETE' | 'PATCH', path: string, account: TestAccount | null, payload?: unknown, query = '') =>
      ctx.t.app.inject({
        method,
        url: `/v3/shorten/domains${path}${query}`,
        headers: account?.headers ?? {},
        ...(payload !== undefined && { payload: payload as object }),
      });
    const list = (account: TestAccount | null, query = '') => call('GET', '', account, undefined, query);
    const add = (account: TestAccount | null, body: unknown, query = '') => call('PUT', '', account, body, query);
    const remove = (account: TestAccount | null, domain: string, query = '') =>
      call('DELETE', `/${encodeURIComponent(domain)}`, account, undefined, query);
    const patch = (account: TestAccount | null, domain: string, body: unknown, query = '') =>
      call('PATCH', `/${encodeURIComponent(domain)}`, account, body, query);
    const visit = (host: string, path: string, method: 'GET' | 'HEAD' = 'GET') => ctx.t.app.inject({ method, url: path, headers: { host } });
    const stored = (hostname: string) => ctx.t.database.domains.byHostname(hostname);
    /** A private domain of the account, added through the API. */
    const own = async (account: TestAccount, body: object = {}) => {
      const domain = newHost();
      const res = await add(account, { domain, ...body });
      assert.equal(res.statusCode, 200, res.body);
      return domain;
    };
    /** A private domain of the account that serves its links: one an administrator added (`brief domain add`). */
    /**
     * A verified private domain of the account (added as the CLI does), made known to the app at once:
     * this suite polls once a minute, and the app reads its domains again before it answers a change
     * made through its API (here one that changes nothing).
     */
    const verifiedOwn = async (account: TestAccount) => {
      const domain = await ctx.t.privateDomain(account.id, 'v3d');
      const refreshed = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/v3/shorten/domains/${encodeURIComponent(domain)}`,
        headers: account.headers,
        payload: { homePageRedirectUrl: null },
      });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      return domain;
    };
    const shortenOn = async (account: TestAccount, domain: string) => {
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/v3/shorten/bulk',
        headers: account.headers,
        payload: [{ url: freshUrl(), domain }],
      });
      assert.equal(res.statusCode, 200, res.body);
      const [made] = res.json();
      assert.equal(made.domain, domain, res.body);
      return made;
    };

    describe('GET /v3/shorten/domains', () => {
      it("lists the public domains and the caller's private ones, with their flags and code lengths", async () => {
        const account = await ctx.t.account('lister');
        const mine = await own(account);
        const short = await own(account, { shortCodeLength: 5 });
        const res = await list(account);
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        const domains = res.json();
        assert.ok(Array.isArray(domains));
        const byName = new Map(domains.map((d: any) => [d.domain, d]));
        const verified = { verified: true };
        assert.deepEqual(byName.get(BASE_HOST), { domain: BASE_HOST, randomCodeLength: 7, isPrimary: true, isGlobal: true, ...verified });
        assert.deepEqual(byName.get(PUBLIC_HOST), { domain: PUBLIC_HOST, randomCodeLength: 7, isPrimary: false, isGlobal: true, ...verified });
        assert.deepEqual(byName.get(storedPublic), { domain: storedPublic, randomCodeLength: 7, isPrimary: false, isGlobal: true, ...verified });
        // Claimed through the API: unverified, with the record that verifies each.
        assert.deepEqual(byName.get(mine), {
          domain: mine,
          randomCodeLength: 7,
          isPrimary: false,
          isGlobal: false,
          ...unverified(mine, byName.get(mine)),
        });
        assert.deepEqual(byName.get(short), {
          domain: short,
          randomCodeLength: 5,
          isPrimary: false,
          isGlobal: false,
          ...unverified(short, byName.get(short)),
        });
        for (const d of domains) {
          const keys = ['domain', 'isGlobal', 'isPrimary', 'randomCodeLength', ...(d.verified ? [] : ['verification']), 'verified'];
          assert.deepEqual(Object.keys(d).sort(), keys);
        }
        assert.ok(!byName.has(theirs), "another account's private domain is not listed");
        assert.deepEqual(
          domains.filter((d: any) => d.isPrimary).map((d: any) => d.domain),
          [BASE_HOST],
        );
        assert.deepEqual(
          domains.filter((d: any) => !d.isGlobal).map((d: any) => d.domain),
          [mine, short].sort(),
          'only the caller’s private domains, by name, after the public ones',
        );
        assert.ok(domains.findIndex((d: any) => !d.isGlobal) > domains.length - 1 - [...domains].reverse().findIndex((d: any) => d.isGlobal));
      });

      it('lists only the public domains for an account without private ones', async () => {
        const account = await ctx.t.account('empty');
        const domains = (await list(account)).json();
        assert.ok(domains.length >= 3);
        assert.ok(domains.every((d: any) => d.isGlobal));
      });
    });

    describe('tokens and workspaces', () => {
      const calls = (account: TestAccount | null, query = '') => [
        list(account, query),
        add(account, { domain: newHost() }, query),
        remove(account, theirs, query),
        patch(account, theirs, { randomCodeLength: 5 }, query),
      ];

      it('answers 401 to every call without a token, or with a bad one', async () => {
        for (const res of await Promise.all(calls(null))) {
          assertError(res, 401, 'E_UNAUTHORIZED_ACCESS');
          assert.equal(res.json().message, 'This call needs a bearer token');
        }
        const bad = { ...owner, headers: { authorization: 'Bearer nope' } };
        for (const res of await Promise.all(calls(bad))) assertError(res, 401, 'E_UNAUTHORIZED_ACCESS');
        assert.equal(await stored(theirs).then((d) => d?.codeLength), null, 'nothing changed');
      });

      it("answers 404 to another workspaceId, and takes the caller's own, empty or 'undefined'", async () => {
        for (const workspaceId of [workspaceUuid(other.id), 'nope']) {
          for (const res of await Promise.all(calls(owner, `?${qs({ workspaceId })}`))) {
            assertError(res, 404, 'E_NOT_FOUND');
            assert.equal(res.json().message, 'Workspace not found');
          }
        }
        for (const workspaceId of [workspaceUuid(owner.id), '', 'undefined']) {
          assert.equal((await list(owner, `?${qs({ workspaceId })}`)).statusCode, 200, workspaceId);
          const domain = newHost();
          assert.equal((await add(owner, { domain }, `?${qs({ workspaceId })}`)).statusCode, 200, workspaceId);
          assert.equal((await patch(owner, domain, { randomCodeLength: 9 }, `?${qs({ workspaceId })}`)).statusCode, 200);
          assert.equal((await remove(owner, domain, `?${qs({ workspaceId })}`)).statusCode, 200);
        }
      });
    });

    describe('PUT /v3/shorten/domains', () => {
      it('adds a private domain of the caller, https unless a scheme is given, and answers its element', async () => {
        const account = await ctx.t.account('adder');
        const domain = newHost();
        const res = await add(account, { domain: domain.toUpperCase(), shortCodeLength: 6 });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { domain, randomCodeLength: 6, isPrimary: false, isGlobal: false, ...unverified(domain, res.json()) });
        assert.deepEqual(await stored(domain), {
          hostname: domain,
          urlPrefix: `https://${domain}`,
          accountId: account.id,
          codeLength: 6,
          homeRedirectUrl: null,
          notFoundRedirectUrl: null,
          verifiedAt: null,
          verificationToken: res.json().verification.value,
        });
        assert.ok((await list(account)).json().some((d: any) => d.domain === domain));
        // Usable at once for links, by its owner only; codes of its length.
        const made = await shortenOn(account, domain);
        assert.equal(made.slug.length, 6);
        assert.equal(made.shortLink, `https://${domain}/${made.slug}`);
        const refused = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), domain })}`, headers: other.headers });
        assertError(refused, 422, 'E_VALIDATION_ERROR', { field: 'domain', message: 'The selected domain is invalid' });

        const plain = `${newHost()}:8080`;
        const withScheme = await add(account, { domain: `http://${plain}` });
        assert.deepEqual(withScheme.json(), {
          domain: plain,
          randomCodeLength: 7,
          isPrimary: false,
          isGlobal: false,
          ...unverified(plain, withScheme.json()),
        });
        assert.equal(withScheme.json().verification.record, `_brief-verify.${plain.replace(/:8080$/, '')}`, 'DNS knows no ports');
        assert.notEqual(withScheme.json().verification.value, res.json().verification.value, 'each claim has its own value');
        assert.equal((await stored(plain))?.urlPrefix, `http://${plain}`);
        assert.equal((await shortenOn(account, plain)).shortLink.startsWith(`http://${plain}/`), true);
      });

      it('refuses a name that exists: the caller’s own, another account’s, a stored public one, a configured one', async () => {
        const account = await ctx.t.account('dup');
        const mine = await own(account);
        const claimed = await own(other);
        for (const domain of [mine, mine.toUpperCase(), `https://${mine}`]) {
          assertError(await add(account, { domain }), 422, 'E_VALIDATION_ERROR', TAKEN);
        }
        for (const domain of [theirs, claimed, claimed.toUpperCase()]) {
          assertError(await add(account, { domain }), 422, 'E_VALIDATION_ERROR', CLAIMED);
        }
        for (const domain of [storedPublic, PUBLIC_HOST, `${PUBLIC_HOST}:8443`]) {
          assertError(await add(account, { domain }), 422, 'E_VALIDATION_ERROR', {
            ...PUBLIC,
            message: 'The domain is a public domain of this server',
          });
        }
        for (const domain of [BASE_HOST, `http://${BASE_HOST}`, `${BASE_HOST}:8080`, BASE_HOST.toUpperCase()]) {
          assertError(await add(account, { domain }), 422, 'E_VALIDATION_ERROR', {
            ...PUBLIC,
            message: "The domain is this server's default domain (BASE_URL)",
          });
        }
        assert.equal((await stored(claimed))?.accountId, other.id, 'the other account keeps its claim');
        assert.equal((await stored(theirs))?.accountId, other.id, 'the other account keeps its domain');
        assert.equal(await stored(PUBLIC_HOST), undefined, 'a configured domain is not stored');
      });

      it('refuses what is not a host name, and a missing one', async () => {
        for (const domain of [
          '',
          'not a host',
          '-bad.example',
          'a..b.example',
          'x.example/path',
          'x.example?q=1',
          'x.example#top',
          'user@x.example',
          ':secret@x.example',
          'ftp://x.example',
          'x.example:99999',
          `${'a'.repeat(64)}.example`,
          'nul\u0000.example',
        ]) {
          assertError(await add(owner, { domain }), 422, 'E_VALIDATION_ERROR', {
            field: 'domain',
            rule: 'hostname',
            message: 'The domain field must be a host name, such as go.example.com',
          });
        }
        assertError(await add(owner, {}), 422, 'E_VALIDATION_ERROR', {
          field: 'domain',
          rule: 'required',
          message: 'The domain field must be defined',
        });
        assertError(await add(owner, { domain: { name: 'x.example' } }), 422, 'E_VALIDATION_ERROR', { field: 'domain' });
        assertError(await add(owner, [newHost()]), 422, 'E_VALIDATION_ERROR');
      });

      it('takes a shortCodeLength from 4 to 32 only', async () => {
        for (const shortCodeLength of [4, 32]) {
          const res = await add(owner, { domain: newHost(), shortCodeLength });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.json().randomCodeLength, shortCodeLength);
        }
        for (const shortCodeLength of [3, 33, 0, -5]) {
          assertError(await add(owner, { domain: newHost(), shortCodeLength }), 422, 'E_VALIDATION_ERROR', {
            field: 'shortCodeLength',
            rule: 'range',
            message: 'The shortCodeLength field must be between 4 and 32',
          });
        }
        for (const shortCodeLength of [4.5, 'seven', true]) {
          assertError(await add(owner, { domain: newHost(), shortCodeLength }), 422, 'E_VALIDATION_ERROR', { field: 'shortCodeLength' });
        }
      });
    });

    describe('DELETE /v3/shorten/domains/{domain}', () => {
      it("removes one of the caller's private domains, which may then be added again", async () => {
        const account = await ctx.t.account('remover');
        const domain = await own(account);
        const res = await remove(account, domain.toUpperCase());
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { success: true });
        assert.equal(await stored(domain), undefined);
        assert.ok(!(await list(account)).json().some((d: any) => d.domain === domain));
        assertError(await remove(account, domain), 404, 'E_NOT_FOUND');
        assert.equal((await add(other, { domain })).statusCode, 200, 'the name is free again');
      });

      it('refuses while the domain has live links, and removes it once they are deleted', async () => {
        const account = await ctx.t.account('busy');
        const domain = await own(account);
        const made = [await shortenOn(account, domain), await shortenOn(account, domain)];
        assertError(await remove(account, domain), 422, 'E_VALIDATION_ERROR', {
          field: 'domain',
          rule: 'in_use',
          message: 'The domain still has 2 live links; delete them first',
        });
        const del = (slug: string) => ctx.t.app.inject({ method: 'DELETE', url: `/v3/shorten/${domain}/${slug}`, headers: account.headers });
        assert.equal((await del(made[0].slug)).statusCode, 200);
        assertError(await remove(account, domain), 422, 'E_VALIDATION_ERROR', {
          field: 'domain',
          message: 'The domain still has 1 live link; delete it first',
        });
        assert.equal((await del(made[1].slug)).statusCode, 200);
        assert.deepEqual((await remove(account, domain)).json(), { success: true });
      });

      it('answers 404 for another account’s domain, a public one, and one that does not exist', async () => {
        for (const domain of [theirs, storedPublic, PUBLIC_HOST, BASE_HOST, newHost(), 'not a host', 'nul\u0000.example']) {
          const res = await remove(owner, domain);
          assertError(res, 404, 'E_NOT_FOUND');
          assert.equal(res.json().message, 'Domain not found');
        }
        assert.ok(await stored(theirs), 'still there');
        assert.ok(await stored(storedPublic), 'still there');
      });
    });

    describe('PATCH /v3/shorten/domains/{domain}', () => {
      it('sets and clears each setting, only the ones given', async () => {
        const domain = await own(owner);
        const ok = async (body: object) => {
          const res = await patch(owner, domain, body);
          assert.equal(res.statusCode, 200, res.body);
          assert.deepEqual(res.json(), { success: true });
          return stored(domain);
        };
        assert.equal((await ok({ randomCodeLength: 9 }))?.codeLength, 9);
        let now = await ok({ homePageRedirectUrl: 'HTTPS://Example.com/home' });
        assert.deepEqual([now?.codeLength, now?.homeRedirectUrl, now?.notFoundRedirectUrl], [9, 'https://example.com/home', null]);
        now = await ok({ notFoundPageRedirectUrl: 'http://example.com/missing?from=short' });
        assert.deepEqual(
          [now?.codeLength, now?.homeRedirectUrl, now?.notFoundRedirectUrl],
          [9, 'https://example.com/home', 'http://example.com/missing?from=short'],
        );
        now = await ok({});
        assert.deepEqual(
          [now?.codeLength, now?.homeRedirectUrl, now?.notFoundRedirectUrl],
          [9, 'https://example.com/home', 'http://example.com/missing?from=short'],
        );
        const listed = (await list(owner)).json().find((d: any) => d.domain === domain);
        assert.equal(listed.randomCodeLength, 9);
        // The list says where the redirects go (what Settings → Domains shows), and only while they are set.
        assert.deepEqual(
          [listed.homePageRedirectUrl, listed.notFoundPageRedirectUrl],
          ['https://example.com/home', 'http://example.com/missing?from=short'],
        );
        now = await ok({ randomCodeLength: null, homePageRedirectUrl: null });
        assert.ok(!('homePageRedirectUrl' in (await list(owner)).json().find((d: any) => d.domain === domain)));
        assert.deepEqual([now?.codeLength, now?.homeRedirectUrl, now?.notFoundRedirectUrl], [null, null, 'http://example.com/missing?from=short']);
        now = await ok({ notFoundPageRedirectUrl: '' });
        assert.deepEqual([now?.codeLength, now?.homeRedirectUrl, now?.notFoundRedirectUrl], [null, null, null]);
        assert.equal((await list(owner)).json().find((d: any) => d.domain === domain).randomCodeLength, 7);
      });

      it('refuses a code length out of 4–32 and URLs that are not absolute http(s)', async () => {
        const domain = await own(owner);
        for (const randomCodeLength of [3, 33]) {
          assertError(await patch(owner, domain, { randomCodeLength }), 422, 'E_VALIDATION_ERROR', {
            field: 'randomCodeLength',
            rule: 'range',
            message: 'The randomCodeLength field must be between 4 and 32',
          });
        }
        for (const randomCodeLength of [4.5, 'seven', {}]) {
          assertError(await patch(owner, domain, { randomCodeLength }), 422, 'E_VALIDATION_ERROR', {
            field: 'randomCodeLength',
            message: 'The randomCodeLength field must be a whole number or null',
          });
        }
        for (const field of ['homePageRedirectUrl', 'notFoundPageRedirectUrl']) {
          for (const url of ['not a url', 'ftp://example.com/', 'javascript:alert(1)', 'http:example.com', '//example.com/x', '/relative']) {
            assertError(await patch(owner, domain, { [field]: url }), 422, 'E_VALIDATION_ERROR', {
              field,
              rule: 'url',
              message: `The ${field} field must be a valid URL`,
            });
          }
          assertError(await patch(owner, domain, { [field]: `https://example.com/${'x'.repeat(8200)}` }), 422, 'E_VALIDATION_ERROR', { field });
          assertError(await patch(owner, domain, { [field]: ['https://example.com/'] }), 422, 'E_VALIDATION_ERROR', {
            field,
            message: `The ${field} field must be a string or null`,
          });
        }
        assertError(await patch(owner, domain, [1]), 422, 'E_VALIDATION_ERROR');
        assert.deepEqual(await stored(domain).then((d) => [d?.codeLength, d?.homeRedirectUrl, d?.notFoundRedirectUrl]), [null, null, null]);
      });

      it("refuses a URL on one of Brief's own short domains (no loops)", async () => {
        const domain = await own(owner);
        const other2 = await own(owner);
        for (const url of [
          `https://${domain}/`,
          `http://${domain.toUpperCase()}/x`,
          `https://${other2}/abc`,
          `https://${theirs}/`,
          `https://${storedPublic}/x`,
          `http://${BASE_HOST}/abc`,
          `https://${PUBLIC_HOST}`,
        ]) {
          for (const field of ['homePageRedirectUrl', 'notFoundPageRedirectUrl']) {
            assertError(await patch(owner, domain, { [field]: url }), 422, 'E_VALIDATION_ERROR', {
              field,
              rule: 'notShortLink',
              message: `The ${field} field must not point to a short link domain`,
            });
          }
        }
      });

      it('answers 404 for another account’s domain, a public one, and one that does not exist', async () => {
        for (const domain of [theirs, storedPublic, PUBLIC_HOST, BASE_HOST, newHost(), 'nul\u0000.example']) {
          const res = await patch(owner, domain, { randomCodeLength: 5, homePageRedirectUrl: 'https://example.com/' });
          assertError(res, 404, 'E_NOT_FOUND');
          assert.equal(res.json().message, 'Domain not found');
        }
        assert.deepEqual(await stored(theirs).then((d) => [d?.codeLength, d?.homeRedirectUrl]), [null, null]);
      });

      it('makes codes of randomCodeLength characters on that domain from then on', async () => {
        const account = await ctx.t.account('lengths');
        const domain = await own(account);
        assert.equal((await shortenOn(account, domain)).slug.length, 7);
        assert.equal((await patch(account, domain, { randomCodeLength: 5 })).statusCode, 200);
        for (let i = 0; i < 3; i++) assert.equal((await shortenOn(account, domain)).slug.length, 5);
        const v2 = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), domain })}`, headers: account.headers });
        assert.equal(v2.json().code.length, 5, v2.body);
        const v3 = await ctx.t.app.inject({ url: `/v3/shorten?${qs({ url: freshUrl(), domain })}`, headers: account.headers });
        assert.equal(v3.json().code.length, 5, v3.body);
        // Other domains keep CODE_LENGTH.
        const elsewhere = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl() })}`, headers: account.headers });
        assert.equal(elsewhere.json().code.length, 7);
        assert.equal((await patch(account, domain, { randomCodeLength: null })).statusCode, 200);
        assert.equal((await shortenOn(account, domain)).slug.length, 7);
      });
    });

    describe('the redirects the settings drive', () => {
      it('redirects the bare domain (GET and HEAD /) only where a home page is set, at once', async () => {
        const domain = await verifiedOwn(owner);
        const plain = await verifiedOwn(owner);
        assertNotFoundPage(await visit(domain, '/'));
        assert.equal((await visit(domain, '/', 'HEAD')).statusCode, 404);
        assert.equal((await patch(owner, domain, { homePageRedirectUrl: 'https://example.com/welcome' })).statusCode, 200);
        // No wait: this instance reads the settings again before it answers the PATCH.
        assertRedirect(await visit(domain, '/'), 'https://example.com/welcome');
        assertRedirect(await visit(domain.toUpperCase(), '/?utm=x'), 'https://example.com/welcome');
        const head = await visit(domain, '/', 'HEAD');
        assert.equal(head.statusCode, 302);
        assert.equal(head.headers.location, 'https://example.com/welcome');
        for (const host of [plain, PUBLIC_HOST]) assertNotFoundPage(await visit(host, '/'));
        // A Host that is no short domain answers as the default domain (decision 0015): its web app.
        assert.match((await visit('unknown.example', '/')).body, /<script type="module"/);
        // The default domain's `/` is the web app (decision 0011).
        const app = await visit(BASE_HOST, '/');
        assert.equal(app.statusCode, 200);
        assert.match(app.body, /<script type="module"[^>]* src="\/assets\//);
        // An unknown key on it still answers the 404 page: only notFoundPageRedirectUrl changes that.
        assertNotFoundPage(await visit(domain, '/nosuchkey'));
        assert.equal((await patch(owner, domain, { homePageRedirectUrl: null })).statusCode, 200);
        assertNotFoundPage(await visit(domain, '/'));
      });

      it('redirects an unknown key where a not-found page is set; blocked links, reserved words and live links are as before', async () => {
        const domain = await verifiedOwn(owner);
        const live = await shortenOn(owner, domain);
        const blocked = await shortenOn(owner, domain);
        await ctx.t.links.setStatus(`${domain}/${blocked.slug}`, 'blocked');
        const deleted = await shortenOn(owner, domain);
        await ctx.t.app.inject({ method: 'DELETE', url: `/v3/shorten/${domain}/${deleted.slug}`, headers: owner.headers });
        assertNotFoundPage(await visit(domain, '/nosuchkey'));
        assert.equal((await patch(owner, domain, { notFoundPageRedirectUrl: 'https://example.com/lost' })).statusCode, 200);
        assertRedirect(await visit(domain, '/nosuchkey'), 'https://example.com/lost');
        assertRedirect(await visit(domain, '/nosuchkey', 'HEAD'), 'https://example.com/lost');
        assertRedirect(await visit(domain, '/nosuchkey?x=1'), 'https://example.com/lost');
        assertRedirect(await visit(domain, `/${deleted.slug}`), 'https://example.com/lost');
        assertRedirect(await visit(domain, `/${live.slug.toLowerCase()}x`), 'https://example.com/lost');
        const ok = await visit(domain, `/${live.slug}`);
        assert.equal(ok.statusCode, 301);
        assert.equal(ok.headers.location, live.url);
        const gone = await visit(domain, `/${blocked.slug}`);
        assert.equal(gone.statusCode, 410);
        assert.match(String(gone.headers['content-type']), /^text\/html/);
        const reserved = await visit(domain, '/v2');
        assertError(reserved, 404, 'E_ROUTE_NOT_FOUND');
        assertError(await visit(domain, '/v3'), 404, 'E_ROUTE_NOT_FOUND');
        assertNotFoundPage(await visit(domain, '/docs/nothing-here'));
        assertNotFoundPage(await visit(domain, '/'));
        // Other domains are untouched.
        assertNotFoundPage(await visit(BASE_HOST, '/nosuchkey'));
        assert.equal((await patch(owner, domain, { notFoundPageRedirectUrl: null })).statusCode, 200);
        assertNotFoundPage(await visit(domain, '/nosuchkey'));
      });

      it('answers the same through the node:http fast path as through the router', async () => {
        const domain = await verifiedOwn(owner);
        await patch(owner, domain, {
          homePageRedirectUrl: 'https://example.com/fast-home',
          notFoundPageRedirectUrl: 'https://example.com/fast-lost',
        });
        const live = await shortenOn(owner, domain);
        await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = ctx.t.app.server.address() as { port: number };
        const get = (path: string, method = 'GET', host = domain) => hostRequest(port, host, path, method);
        for (const method of ['GET', 'HEAD']) {
          const home = await get('/', method);
          assert.equal(home.status, 302, method);
          assert.equal(home.headers.location, 'https://example.com/fast-home');
          assert.equal(home.headers['cache-control'], 'no-store');
          const lost = await get('/nosuchkey', method);
          assert.equal(lost.status, 302, method);
          assert.equal(lost.headers.location, 'https://example.com/fast-lost');
          assert.equal(lost.headers['cache-control'], 'no-store');
        }
        assert.equal((await get(`/${live.slug}`)).status, 301);
        assert.match((await get('/', 'GET', BASE_HOST)).body, /<script type="module"/, 'the web app on the default domain');
        assert.equal((await get('/nosuchkey', 'GET', BASE_HOST)).body, NOT_FOUND_PAGE);
        assert.equal((await get('/v2')).status, 404);
        assert.equal(JSON.parse((await get('/v2')).body).code, 'E_ROUTE_NOT_FOUND');
      });
    });
  });

  describe(`v3 domains: changes made elsewhere (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    const visit = (host: string, path: string) => ctx.t.app.inject({ url: path, headers: { host } });

    it('follows settings changed by another instance or the CLI within CHANGE_POLL_MS, and a removed domain', async () => {
      const account = await ctx.t.account('elsewhere');
      const domain = await ctx.t.privateDomain(account.id);
      assertNotFoundPage(await visit(domain, '/'));
      // Written straight to the table, as another instance would: this app hears of it only through its poll.
      await ctx.t.database.domains.updateSettings(domain, {
        homeRedirectUrl: 'https://example.com/from-elsewhere',
        notFoundRedirectUrl: 'https://example.com/lost-elsewhere',
      });
      assert.ok(await eventually(async () => (await visit(domain, '/')).statusCode === 302), 'the app reads the settings again');
      assertRedirect(await visit(domain, '/'), 'https://example.com/from-elsewhere');
      assertRedirect(await visit(domain, '/nosuchkey'), 'https://example.com/lost-elsewhere');
      await ctx.t.domains.remove(domain);
      // A removed domain's Host is no short domain: it answers as the default domain (decision 0015),
      // which has no home or not-found redirect here.
      assert.ok(await eventually(async () => (await visit(domain, '/')).statusCode !== 302), 'a removed domain redirects no more');
      assertNotFoundPage(await visit(domain, '/nosuchkey'));
    });

    it('makes codes of a length set elsewhere within CHANGE_POLL_MS', async () => {
      const account = await ctx.t.account('elsewhere');
      const domain = await ctx.t.privateDomain(account.id);
      const codeLength = async () => {
        const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: freshUrl(), domain })}`, headers: account.headers });
        assert.equal(res.statusCode, 200, res.body);
        return res.json().code.length;
      };
      assert.equal(await codeLength(), 7);
      await ctx.t.database.domains.updateSettings(domain, { codeLength: 11 });
      assert.ok(await eventually(async () => (await codeLength()) === 11));
    });
  });
}
