// Roles × actions over HTTP on every dialect: a viewer reads links and analytics; a member also makes,
// edits and deletes links; an admin also manages domains, tokens and members; an owner also invites owners.
// A role that may see but not do answers 403 E_FORBIDDEN; another workspace's data stays 404.
// Signed-in people (session cookie) and workspace tokens (every right) are held to the same rules.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ROLES, type Role } from '../../src/accounts/roles.js';
import { BASE_HOST, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { member, type SignedIn } from '../support/people.js';

for (const dialect of dialects) {
  describe(`roles × actions (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let owner: TestAccount;
    let stranger: TestAccount;
    const people = {} as Record<Role, SignedIn>;
    let strangersLink: { domain: string; slug: string };

    before(async () => {
      const { t } = ctx;
      owner = await t.account('team');
      stranger = await t.account('other');
      for (const role of ROLES) people[role] = await member(t, owner.id, role);
      strangersLink = (await t.app.inject({ url: '/v3/shorten?url=https://example.com/theirs', headers: stranger.headers })).json();
    });

    /** A link of the workspace to act on, made with the workspace's token. */
    const link = async () => {
      const made = await ctx.t.app.inject({ url: `/v3/shorten?url=https://example.com/${uniqueName('l')}`, headers: owner.headers });
      assert.equal(made.statusCode, 200, made.body);
      return made.json() as { domain: string; slug: string };
    };

    /** An invitation of a new person to the workspace as `role`: its status. */
    const invite = async (headers: Record<string, string>, role: string) => {
      const payload = { email: `${uniqueName(role)}@example.com`, role };
      return (await ctx.t.app.inject({ method: 'POST', url: '/auth/invitations', headers, payload })).statusCode;
    };

    const actions: Array<{ name: string; least: Role | 'viewer'; send: (headers: Record<string, string>) => Promise<number> }> = [
      { name: 'list links', least: 'viewer', send: async (headers) => (await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode },
      {
        name: 'read one link',
        least: 'viewer',
        send: async (headers) => {
          const { domain, slug } = await link();
          return (await ctx.t.app.inject({ url: `/v3/shorten/${domain}/${slug}`, headers })).statusCode;
        },
      },
      {
        name: 'read analytics',
        least: 'viewer',
        send: async (headers) => (await ctx.t.app.inject({ url: '/v3/shorten/analytics/clicks', headers })).statusCode,
      },
      {
        name: 'read domains',
        least: 'viewer',
        send: async (headers) => (await ctx.t.app.inject({ url: '/v3/shorten/domains', headers })).statusCode,
      },
      { name: 'read members', least: 'viewer', send: async (headers) => (await ctx.t.app.inject({ url: '/auth/members', headers })).statusCode },
      {
        name: 'make a link (v3)',
        least: 'member',
        send: async (headers) => (await ctx.t.app.inject({ url: `/v3/shorten?url=https://example.com/${uniqueName('m')}`, headers })).statusCode,
      },
      {
        name: 'make a link (v2)',
        least: 'member',
        send: async (headers) => (await ctx.t.app.inject({ url: `/v2/shorten?url=https://example.com/${uniqueName('m')}`, headers })).statusCode,
      },
      {
        name: 'make links in bulk',
        least: 'member',
        send: async (headers) =>
          (await ctx.t.app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers, payload: [{ url: 'https://example.com/bulk' }] })).statusCode,
      },
      {
        name: 'edit a link',
        least: 'member',
        send: async (headers) => {
          const { domain, slug } = await link();
          return (await ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${domain}/${slug}`, headers, payload: { comment: 'x' } })).statusCode;
        },
      },
      {
        name: 'delete a link (v3)',
        least: 'member',
        send: async (headers) => {
          const { domain, slug } = await link();
          return (await ctx.t.app.inject({ method: 'DELETE', url: `/v3/shorten/${domain}/${slug}`, headers })).statusCode;
        },
      },
      {
        name: 'delete a link (v2)',
        least: 'member',
        send: async (headers) => {
          const { domain, slug } = await link();
          return (await ctx.t.app.inject({ method: 'DELETE', url: `/v2/links/${domain}%2F${slug}`, headers })).statusCode;
        },
      },
      {
        name: 'claim a domain',
        least: 'admin',
        send: async (headers) =>
          (await ctx.t.app.inject({ method: 'PUT', url: '/v3/shorten/domains', headers, payload: { domain: `${uniqueName('d')}.example` } }))
            .statusCode,
      },
      {
        name: 'list tokens',
        least: 'member',
        send: async (headers) => (await ctx.t.app.inject({ url: '/v3/tokens', headers })).statusCode,
      },
      {
        name: 'make a token',
        least: 'admin',
        send: async (headers) =>
          (await ctx.t.app.inject({ method: 'POST', url: '/v3/tokens', headers, payload: { name: uniqueName('tok') } })).statusCode,
      },
      { name: 'invite a member', least: 'admin', send: (headers) => invite(headers, 'member') },
      { name: 'invite an owner', least: 'owner', send: (headers) => invite(headers, 'owner') },
    ];

    for (const action of actions) {
      it(`${action.name}: ${action.least} and above, 403 below; a workspace token may`, async () => {
        const answers = [];
        for (const role of ROLES) answers.push(`${role} ${await action.send(people[role].headers)}`);
        answers.push(`token ${await action.send(owner.headers)}`);
        const allowed = ROLES.indexOf(action.least);
        assert.deepEqual(answers, [...ROLES.map((role, i) => `${role} ${i >= allowed ? 200 : 403}`), 'token 200']);
      });
    }

    it('answers 403 in the documented shape, naming the role needed', async () => {
      const response = await ctx.t.app.inject({ url: '/v3/shorten?url=https://example.com/nope', headers: people.viewer.headers });
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), {
        code: 'E_FORBIDDEN',
        message: "A viewer may not make, edit or delete the workspace's links; this needs the member role or above",
      });
    });

    it("keeps another workspace's links not found (404) for every role, never 403", async () => {
      for (const role of ROLES) {
        const { headers } = people[role];
        const { domain, slug } = strangersLink;
        const read = await ctx.t.app.inject({ url: `/v3/shorten/${domain}/${slug}`, headers });
        const edit = await ctx.t.app.inject({ method: 'PATCH', url: `/v3/shorten/${domain}/${slug}`, headers, payload: { comment: 'x' } });
        const remove = await ctx.t.app.inject({ method: 'DELETE', url: `/v3/shorten/${domain}/${slug}`, headers });
        assert.deepEqual([read.statusCode, edit.statusCode, remove.statusCode], [404, 404, 404], role);
      }
      const listed = (await ctx.t.app.inject({ url: '/v3/shorten/list', headers: people.owner.headers })).json() as {
        links: Array<{ originalUrl: string }>;
      };
      assert.ok(!listed.links.some((l) => l.originalUrl === 'https://example.com/theirs'));
      const other = await ctx.t.app.inject({
        url: `/v3/shorten/list?workspaceId=${'0'.repeat(8)}-0000-5000-8000-${'0'.repeat(12)}`,
        headers: people.owner.headers,
      });
      assert.equal(other.statusCode, 404);
    });

    it('makes a signed-in member’s links in the workspace, seen by its token', async () => {
      const made = (await ctx.t.app.inject({ url: '/v3/shorten?url=https://example.com/by-member', headers: people.member.headers })).json();
      const seen = await ctx.t.app.inject({ url: `/v3/shorten/${made.domain}/${made.slug}`, headers: owner.headers });
      assert.equal(seen.statusCode, 200);
      assert.equal(made.domain, BASE_HOST);
    });
  });
}
