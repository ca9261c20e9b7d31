// A token acts with the rights of the person who made it, never more (issue 37, finding 1), over HTTP on
// every dialect: an admin's token cannot make its admin owner nor demote the owner; a token acting as owner
// needs an owner; a `role` above the caller is 403; a token made by a token has the same maker and at most
// its role; a demoted maker's token is demoted too and one whose maker left is refused; a viewer does not
// list tokens; members:read guards people's emails; the list and /v3/tokens/current say maker and role.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Role } from '../../src/accounts/roles.js';
import { SCOPES } from '../../src/accounts/scopes.js';
import { type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { member, type SignedIn } from '../support/people.js';

type Headers = Record<string, string>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

for (const dialect of dialects) {
  describe(`tokens never outrank their maker (${dialect})`, () => {
    // Many people sign in here from one address: the sign-in limit's own tests are elsewhere.
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
    let team: TestAccount;
    const people = {} as Record<Role, SignedIn>;

    before(async () => {
      team = await ctx.t.account('makers');
      for (const role of ['owner', 'admin', 'member', 'viewer'] as const) people[role] = await member(ctx.t, team.id, role);
    });

    const mint = (by: Headers, body: Record<string, unknown> = {}) =>
      ctx.t.app.inject({ method: 'POST', url: '/v3/tokens', headers: by, payload: { name: uniqueName('tok'), ...body } });
    /** A token made through the API by `by`, its secret's headers and its answer. */
    const minted = async (by: Headers, body: Record<string, unknown> = {}) => {
      const made = await mint(by, body);
      assert.equal(made.statusCode, 200, made.body);
      return { headers: bearer(made.json().token), made: made.json() };
    };
    const patchRole = (by: Headers, userId: number, role: string) =>
      ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${userId}`, headers: by, payload: { role } });
    const roleOf = (userId: number) => ctx.t.database.people.roleIn(userId, team.id);
    const current = async (headers: Headers) => {
      const answer = await ctx.t.app.inject({ url: '/v3/tokens/current', headers });
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json().token;
    };
    const claimDomain = (headers: Headers) =>
      ctx.t.app.inject({ method: 'PUT', url: '/v3/shorten/domains', headers, payload: { domain: `${uniqueName('d')}.example` } });

    it("refuses the admin → owner escalation: an admin's token cannot promote its admin nor demote the owner", async () => {
      const { headers, made } = await minted(people.admin.headers);
      assert.equal(made.role, 'admin');
      assert.deepEqual(made.createdBy, { id: people.admin.userId, email: people.admin.email });

      const promote = await patchRole(headers, people.admin.userId, 'owner');
      assert.equal(promote.statusCode, 403, promote.body);
      assert.equal(promote.json().code, 'E_FORBIDDEN');
      const demote = await patchRole(headers, people.owner.userId, 'member');
      assert.equal(demote.statusCode, 403, demote.body);
      const remove = await ctx.t.app.inject({ method: 'DELETE', url: `/auth/members/${people.owner.userId}`, headers });
      assert.equal(remove.statusCode, 403);
      assert.equal(await roleOf(people.admin.userId), 'admin');
      assert.equal(await roleOf(people.owner.userId), 'owner');
      // Nor through a token of its own that asks for more.
      assert.equal((await mint(headers, { role: 'owner' })).statusCode, 403);
    });

    it('needs an owner to make a token that acts as owner; a role above the caller is 403, a bad one 422', async () => {
      assert.equal((await minted(people.owner.headers, { role: 'owner' })).made.role, 'owner');
      assert.equal((await minted(people.owner.headers)).made.role, 'owner', 'an owner’s own role when none is asked');
      const refused = await mint(people.admin.headers, { role: 'owner' });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().code, 'E_FORBIDDEN');
      assert.match(refused.json().message, /acts as admin/);
      assert.equal((await minted(people.admin.headers, { role: 'admin' })).made.role, 'admin');
      assert.equal((await minted(people.admin.headers, { role: 'viewer' })).made.role, 'viewer');
      // A member makes no token at all (tokens:write is the admin's).
      assert.equal((await mint(people.member.headers, { role: 'viewer' })).statusCode, 403);

      for (const role of ['king', 'Owner', '', 7]) {
        const bad = await mint(people.owner.headers, { role });
        assert.equal(bad.statusCode, 422, `${JSON.stringify(role)}: ${bad.body}`);
        assert.equal(bad.json().code, 'E_VALIDATION_ERROR');
        assert.equal(bad.json().errors[0].field, 'role');
      }
    });

    it("gives a token made by a token the same maker, capped by the making token's role", async () => {
      const { headers: adminAsOwner } = await minted(people.owner.headers, { role: 'admin' });
      const child = await minted(adminAsOwner);
      assert.equal(child.made.role, 'admin', 'the making token’s role, not its maker’s');
      assert.deepEqual(child.made.createdBy, { id: people.owner.userId, email: people.owner.email });
      assert.equal((await mint(adminAsOwner, { role: 'owner' })).statusCode, 403);
      // The operator's token (the CLI's, acting as owner) makes the operator's tokens.
      const operators = await minted(team.headers, { role: 'owner' });
      assert.equal(operators.made.createdBy, null);
      assert.equal(operators.made.role, 'owner');
    });

    it("caps a token by its maker's role now: demoted, the token is demoted; promoted back, it is what it was made", async () => {
      const person = await member(ctx.t, team.id, 'admin');
      const { headers } = await minted(person.headers);
      assert.equal((await claimDomain(headers)).statusCode, 200);
      assert.equal((await ctx.t.app.inject({ url: '/auth/members', headers })).statusCode, 200);

      assert.equal((await patchRole(people.owner.headers, person.userId, 'member')).statusCode, 200);
      const refused = await claimDomain(headers);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.match(refused.json().message, /A member may not/);
      const now = await current(headers);
      assert.equal(now.role, 'member');
      assert.ok(!now.scopes.includes('members:read'), 'a member’s token holds no members:read');
      assert.equal((await ctx.t.app.inject({ url: '/auth/members', headers })).statusCode, 403);
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode, 200, 'what a member may do, it does');
      const listed = (await ctx.t.app.inject({ url: '/v3/tokens', headers: people.owner.headers })).json();
      assert.equal(listed.find((t: { id: number }) => t.id === now.id).role, 'member', 'the list says the role it acts with now');

      assert.equal((await patchRole(people.owner.headers, person.userId, 'admin')).statusCode, 200);
      assert.equal((await current(headers)).role, 'admin');
      assert.equal((await claimDomain(headers)).statusCode, 200);
    });

    it('refuses a token whose maker is no member of its workspace any more (401), even one not revoked', async () => {
      const person = await member(ctx.t, team.id, 'admin');
      const { headers } = await minted(person.headers);
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode, 200);
      // The membership gone without the removal's revocation: the cap alone refuses the token.
      await ctx.t.database.db.deleteFrom('memberships').where('user_id', '=', person.userId).where('account_id', '=', team.id).execute();
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode, 401);
      // And nothing is made for a maker who is not a member (the store checks in its write).
      const made = await ctx.t.database.accounts.addToken({
        accountId: team.id,
        hash: uniqueName('hash'),
        label: null,
        expiresAt: null,
        scopes: null,
        createdBy: person.userId,
        role: 'viewer',
      });
      assert.equal(made, undefined);
    });

    it('does not list tokens to a viewer, by session or by a viewer token (403); a member lists them', async () => {
      const viewerSession = await ctx.t.app.inject({ url: '/v3/tokens', headers: people.viewer.headers });
      assert.equal(viewerSession.statusCode, 403, viewerSession.body);
      assert.equal(viewerSession.json().code, 'E_FORBIDDEN');
      const { headers } = await minted(people.owner.headers, { role: 'viewer' });
      assert.equal((await ctx.t.app.inject({ url: '/v3/tokens', headers })).statusCode, 403);
      const memberSession = await ctx.t.app.inject({ url: '/v3/tokens', headers: people.member.headers });
      assert.equal(memberSession.statusCode, 200, memberSession.body);
    });

    it('reads member emails with members:read only: owner and admin tokens hold it, a token without it is 403', async () => {
      const list = (headers: Headers) => ctx.t.app.inject({ url: '/auth/members', headers });
      assert.equal((await list(team.headers)).statusCode, 200, 'the CLI token holds every scope');
      assert.equal((await list((await minted(people.admin.headers)).headers)).statusCode, 200);
      const narrow = await minted(people.owner.headers, { scopes: SCOPES.filter((scope) => scope !== 'members:read') });
      const refused = await list(narrow.headers);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.match(refused.json().message, /members:read/);
      assert.equal((await list((await minted(people.owner.headers, { scopes: ['members:read'] })).headers)).statusCode, 200);
      assert.equal((await list((await minted(people.owner.headers, { role: 'member' })).headers)).statusCode, 403);
      // A token that acts as a member cannot be given it.
      const asked = await mint(people.owner.headers, { role: 'member', scopes: ['links:read', 'members:read'] });
      assert.equal(asked.statusCode, 422, asked.body);
      assert.equal(asked.json().errors[0].field, 'scopes');
      // A session reads them whatever its role, as before.
      assert.equal((await list(people.viewer.headers)).statusCode, 200);
      // A token without it sees its own maker's id on /v3/tokens/current, not their email.
      assert.deepEqual((await current(narrow.headers)).createdBy, { id: people.owner.userId });
      assert.equal((await current(narrow.headers)).role, 'owner');
    });

    it('lists each token with its maker (an email, or null for the operator) and role; /v3/tokens/current says them', async () => {
      const { made } = await minted(people.admin.headers, { role: 'member' });
      const listed = await ctx.t.app.inject({ url: '/v3/tokens', headers: people.owner.headers });
      assert.equal(listed.statusCode, 200);
      const tokens = listed.json() as Array<{ id: number; role: string; createdBy: unknown }>;
      const { token: secret, ...shown } = made;
      assert.deepEqual(
        tokens.find((t) => t.id === made.id),
        {
          ...shown,
          createdBy: { id: people.admin.userId, email: people.admin.email },
          role: 'member',
        },
      );
      assert.deepEqual(Object.keys(tokens[0]!).sort(), ['createdAt', 'createdBy', 'expiresAt', 'id', 'lastUsedAt', 'name', 'role', 'scopes']);
      const cli = tokens[0]!;
      assert.equal(cli.createdBy, null, 'the test support’s token, made as the CLI makes one');
      assert.equal(cli.role, 'owner');
      const presented = await current(team.headers);
      assert.equal(presented.createdBy, null);
      assert.equal(presented.role, 'owner');
      // A member's token holds no members:read: it is told its maker's id, not their email.
      const own = await current(bearer(secret));
      assert.equal(own.role, 'member');
      assert.deepEqual(own.createdBy, { id: people.admin.userId });
    });

    it('documents role and maker in the API document', async () => {
      const document = (await ctx.t.app.inject({ url: '/v2/openapi.json' })).json();
      const body = document.paths['/v3/tokens'].post.requestBody.content['application/json'].schema;
      assert.deepEqual(body.properties.role.enum, ['viewer', 'member', 'admin', 'owner']);
      const listed = document.paths['/v3/tokens'].get.responses['200'].content['application/json'].schema;
      assert.ok(listed.items.properties.createdBy, JSON.stringify(listed.items.properties));
      assert.deepEqual(listed.items.properties.role.enum, ['viewer', 'member', 'admin', 'owner']);
      assert.ok(document.paths['/auth/members'].get.responses['403']);
    });
  });
}
