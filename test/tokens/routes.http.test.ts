// The token API the web app's Settings use (decision 0029): list, make (the secret once), revoke;
// a token with every scope needed; another workspace's tokens not found; bad input a clear 422.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workspaceUuid } from '../../src/accounts/ids.js';
import { SCOPES } from '../../src/accounts/scopes.js';
import { eventually, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { member } from '../support/people.js';

for (const dialect of dialects) {
  describe(`token API (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    const call = (account: Pick<TestAccount, 'headers'> | undefined, method: string, url: string, body?: unknown) =>
      ctx.t.app.inject({
        method: method as 'GET',
        url,
        headers: { ...account?.headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });

    it('makes a token with the scopes asked for, answers its secret once, and the token works within them', async () => {
      const owner = await ctx.t.account('tokens');
      const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
      const made = await call(owner, 'POST', '/v3/tokens', { name: 'deploy script', scopes: ['links:write', 'links:read'], expiresAt });
      assert.equal(made.statusCode, 200, made.body);
      const token = made.json();
      assert.match(token.token, /^brf_/);
      assert.equal(token.name, 'deploy script');
      assert.deepEqual(token.scopes, ['links:read', 'links:write']);
      assert.equal(token.expiresAt, expiresAt);
      assert.equal(token.lastUsedAt, null);

      const headers = { authorization: `Bearer ${token.token}` };
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode, 200);
      const analytics = await ctx.t.app.inject({ url: '/v3/shorten/analytics/clicks', headers });
      assert.equal(analytics.statusCode, 403);
      assert.match(analytics.json().message, /analytics:read/);
      // A narrower token cannot manage tokens (it could make itself a wider one).
      const widen = await call({ headers }, 'POST', '/v3/tokens', { name: 'wider' });
      assert.equal(widen.statusCode, 403);
      assert.equal(widen.json().code, 'E_FORBIDDEN');

      const listed = (await call(owner, 'GET', '/v3/tokens')).json();
      const entry = listed.find((t: any) => t.id === token.id);
      assert.ok(entry);
      // Who made it and the role it acts with too (issue 37): the workspace token that made it is the operator's.
      assert.deepEqual(Object.keys(entry).sort(), ['createdAt', 'createdBy', 'expiresAt', 'id', 'lastUsedAt', 'name', 'role', 'scopes']);
      assert.equal(entry.createdBy, null);
      assert.equal(entry.role, 'owner');
      assert.ok(!JSON.stringify(listed).includes(token.token), 'never the secret');
      // The last use is written after the answer, not before it.
      const used = await eventually(
        async () => (await call(owner, 'GET', '/v3/tokens')).json().find((t: any) => t.id === token.id).lastUsedAt !== null,
      );
      assert.ok(used, 'used above');
    });

    it('makes a token with every scope when none are named, and lists the CLI-made ones too', async () => {
      const owner = await ctx.t.account('every');
      const made = (await call(owner, 'POST', '/v3/tokens', { name: 'full' })).json();
      assert.deepEqual(made.scopes, [...SCOPES]);
      assert.equal(made.expiresAt, null);
      const listed = (await call(owner, 'GET', '/v3/tokens')).json();
      assert.equal(listed.length, 2);
      assert.equal(listed[0].name, null, 'the one the test support made, without a label');
      assert.deepEqual(listed[0].scopes, [...SCOPES]);
    });

    it('revokes a token: it stops working at once and leaves the list', async () => {
      const owner = await ctx.t.account('revoke');
      const made = (await call(owner, 'POST', '/v3/tokens', { name: 'short-lived', scopes: ['links:read'] })).json();
      const headers = { authorization: `Bearer ${made.token}` };
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode, 200);
      const revoked = await call(owner, 'DELETE', `/v3/tokens/${made.id}`);
      assert.equal(revoked.statusCode, 200, revoked.body);
      assert.deepEqual(revoked.json(), { success: true });
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode, 401);
      assert.ok(!(await call(owner, 'GET', '/v3/tokens')).json().some((t: any) => t.id === made.id));
      const again = await call(owner, 'DELETE', `/v3/tokens/${made.id}`);
      assert.equal(again.statusCode, 404);
    });

    it("keeps other workspaces' tokens invisible: not listed, not revocable (404), another workspaceId 404", async () => {
      const alice = await ctx.t.account('alice');
      const bob = await ctx.t.account('bob');
      const bobs = (await call(bob, 'POST', '/v3/tokens', { name: 'bob only' })).json();
      assert.ok(!(await call(alice, 'GET', '/v3/tokens')).json().some((t: any) => t.id === bobs.id));
      const revoke = await call(alice, 'DELETE', `/v3/tokens/${bobs.id}`);
      assert.equal(revoke.statusCode, 404);
      assert.equal(revoke.json().code, 'E_NOT_FOUND');
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers: { authorization: `Bearer ${bobs.token}` } })).statusCode, 200);
      const elsewhere = await call(alice, 'GET', `/v3/tokens?workspaceId=${workspaceUuid(bob.id)}`);
      assert.equal(elsewhere.statusCode, 404);
      assert.equal((await call(alice, 'GET', `/v3/tokens?workspaceId=${workspaceUuid(alice.id)}`)).statusCode, 200);
    });

    it('says which token a request presents, whatever its scopes, and its workspace; not for a session or no token', async () => {
      const owner = await ctx.t.account('presented');
      const made = (await call(owner, 'POST', '/v3/tokens', { name: 'read only', scopes: ['links:read'] })).json();
      const headers = { authorization: `Bearer ${made.token}` };
      const answer = await ctx.t.app.inject({ url: '/v3/tokens/current', headers });
      assert.equal(answer.statusCode, 200, answer.body);
      const body = answer.json();
      assert.deepEqual(body.workspace, { id: workspaceUuid(owner.id), name: owner.name });
      assert.equal(body.token.id, made.id);
      assert.equal(body.token.name, 'read only');
      assert.deepEqual(body.token.scopes, ['links:read']);
      assert.ok(!JSON.stringify(body).includes(made.token), 'never the secret');

      assert.equal((await ctx.t.app.inject({ url: '/v3/tokens/current' })).statusCode, 401);
      const person = await member(ctx.t, owner.id, 'owner');
      assert.equal((await ctx.t.app.inject({ url: '/v3/tokens/current', headers: person.headers })).statusCode, 401);
      assert.equal((await call(owner, 'DELETE', `/v3/tokens/${made.id}`)).statusCode, 200);
      assert.equal((await ctx.t.app.inject({ url: '/v3/tokens/current', headers })).statusCode, 401);
    });

    it('needs a token: anonymous calls are 401', async () => {
      for (const [method, url] of [
        ['GET', '/v3/tokens'],
        ['POST', '/v3/tokens'],
        ['DELETE', '/v3/tokens/1'],
      ] as const) {
        const res = await call(undefined, method, url, method === 'POST' ? { name: 'x' } : undefined);
        assert.equal(res.statusCode, 401, `${method} ${url}`);
      }
    });

    it('refuses bad input with a 422 naming the field, and makes nothing', async () => {
      const owner = await ctx.t.account('bad');
      const cases: Array<[body: unknown, field: string, pattern: RegExp]> = [
        [{ name: 'x', scopes: ['links:delete'] }, 'scopes', /Unknown scope "links:delete"/],
        [{ name: 'x', scopes: ['links:read', 'admin'] }, 'scopes', /Unknown scope "admin"/],
        [{ name: 'x', scopes: [] }, 'scopes', /at least one scope/],
        [{ name: '' }, 'name', /must not be empty/],
        [{ name: '   ' }, 'name', /must not be empty/],
        [{ name: 'x'.repeat(101) }, 'name', /at most 100/],
        [{ name: 'tab\there' }, 'name', /control characters/],
        [{}, 'name', /name/],
        [{ name: 'x', expiresAt: 'tomorrow' }, 'expiresAt', /ISO 8601/],
        [{ name: 'x', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt', /in the future/],
        [{ name: 'x', expiresAt: '2030-02-30T00:00:00Z' }, 'expiresAt', /exist/],
      ];
      for (const [body, field, pattern] of cases) {
        const res = await call(owner, 'POST', '/v3/tokens', body);
        assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
        const answer = res.json();
        assert.equal(answer.code, 'E_VALIDATION_ERROR');
        assert.match(answer.message, pattern, JSON.stringify(body));
        assert.equal(answer.errors[0].field, field, JSON.stringify(body));
      }
      assert.equal((await call(owner, 'GET', '/v3/tokens')).json().length, 1, 'only the first token');
      const notAnId = await call(owner, 'DELETE', '/v3/tokens/abc');
      assert.equal(notAnId.statusCode, 422);
      // Past the database's integer keys (1e300 failed on PostgreSQL): a 422, never a 500.
      for (const bad of ['1e300', '2147483648']) assert.equal((await call(owner, 'DELETE', `/v3/tokens/${bad}`)).statusCode, 422, bad);
    });

    it('writes a token’s last use at most once a minute', async () => {
      const name = uniqueName('touch');
      await ctx.t.accounts.create(name);
      const { token, record } = await ctx.t.tokens.createToken(name, { scopes: ['links:read'] });
      const headers = { authorization: `Bearer ${token}` };
      const lastUsed = async () =>
        (await ctx.t.database.db.selectFrom('tokens').select('last_used_at').where('id', '=', record.id).executeTakeFirstOrThrow()).last_used_at;
      assert.equal(await lastUsed(), null);
      await ctx.t.app.inject({ url: '/v3/shorten/list', headers });
      let first: number | null = null;
      for (let i = 0; i < 50 && first === null; i++) {
        first = await lastUsed();
        if (first === null) await new Promise((r) => setTimeout(r, 10));
      }
      assert.ok(first !== null && Math.abs(Number(first) - Date.now()) < 10_000);
      await ctx.t.app.inject({ url: '/v3/shorten/list', headers });
      await new Promise((r) => setTimeout(r, 50));
      assert.equal(await lastUsed(), first, 'not written again within the minute');
    });
  });
}
