// Members of a workspace over HTTP on every dialect (decision 0028): role change and removal by role
// (viewer and member 403, admin yes but not for owners, owner everything, another workspace's person
// 404), the last owner neither demoted nor removed (also by two owners at once), a removed member's
// sessions ended, the workspace switcher, and an existing person joining a second workspace.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { workspaceUuid } from '../../src/accounts/ids.js';
import type { Role } from '../../src/accounts/roles.js';
import type { BriefError } from '../../src/errors.js';
import { PeopleService } from '../../src/people/people-service.js';
import { hashToken } from '../../src/tokens/token-secrets.js';
import { BASE_PREFIX, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { addUser, member, PASSWORD, SAME_ORIGIN, type SignedIn, sessionSetBy, signIn, switchWorkspace } from '../support/people.js';

for (const dialect of dialects) {
  describe(`members: roles and removal (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let team: TestAccount;
    const people: Partial<Record<Role, SignedIn>> = {};

    before(async () => {
      team = await ctx.t.account('team');
      for (const role of ['owner', 'admin', 'member', 'viewer'] as const) people[role] = await member(ctx.t, team.id, role);
    });

    const patch = (by: { cookie: string; origin: string } | { authorization: string }, userId: number, role: string) =>
      ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${userId}`, headers: by, payload: { role } });
    const remove = (by: { cookie: string; origin: string } | { authorization: string }, userId: number) =>
      ctx.t.app.inject({ method: 'DELETE', url: `/auth/members/${userId}`, headers: by });
    const roleOf = async (userId: number, accountId = team.id) => ctx.t.database.people.roleIn(userId, accountId);

    it('lists members with their user id', async () => {
      const listed = await ctx.t.app.inject({ url: '/auth/members', headers: people.viewer!.headers });
      assert.equal(listed.statusCode, 200);
      const owner = (listed.json() as Array<{ id: number; email: string; role: string }>).find((m) => m.email === people.owner!.email);
      assert.deepEqual(owner, { id: people.owner!.userId, email: people.owner!.email, displayName: null, role: 'owner' });
    });

    it('refuses a viewer and a member (403), and changes nothing', async () => {
      const target = await addUser(ctx.t, team.id, 'viewer');
      for (const role of ['viewer', 'member'] as const) {
        const changed = await patch(people[role]!.headers, target.id, 'member');
        assert.equal(changed.statusCode, 403, `${role}: ${changed.body}`);
        assert.equal(changed.json().code, 'E_FORBIDDEN');
        const removed = await remove(people[role]!.headers, target.id);
        assert.equal(removed.statusCode, 403, role);
      }
      assert.equal(await roleOf(target.id), 'viewer');
    });

    it('lets an admin change and remove admins, members and viewers, but not make or touch an owner', async () => {
      const admin = people.admin!;
      const target = await addUser(ctx.t, team.id, 'viewer');
      const changed = await patch(admin.headers, target.id, 'admin');
      assert.equal(changed.statusCode, 200, changed.body);
      assert.deepEqual(changed.json(), { id: target.id, email: target.email, displayName: null, role: 'admin' });
      assert.equal(await roleOf(target.id), 'admin');

      const toOwner = await patch(admin.headers, target.id, 'owner');
      assert.equal(toOwner.statusCode, 403);
      assert.match(toOwner.json().message, /owner role/);
      const demoteOwner = await patch(admin.headers, people.owner!.userId, 'member');
      assert.equal(demoteOwner.statusCode, 403);
      assert.equal((await remove(admin.headers, people.owner!.userId)).statusCode, 403);
      assert.equal(await roleOf(people.owner!.userId), 'owner');

      assert.equal((await remove(admin.headers, target.id)).statusCode, 200);
      assert.equal(await roleOf(target.id), undefined);
    });

    it('lets an owner (or the workspace token) make and unmake owners', async () => {
      const target = await addUser(ctx.t, team.id, 'member');
      assert.equal((await patch(people.owner!.headers, target.id, 'owner')).statusCode, 200);
      assert.equal(await roleOf(target.id), 'owner');
      assert.equal((await patch(team.headers, target.id, 'viewer')).statusCode, 200);
      assert.equal(await roleOf(target.id), 'viewer');
    });

    it("answers 404 for a person of another workspace, whatever the caller's role", async () => {
      const other = await ctx.t.account('other');
      const stranger = await addUser(ctx.t, other.id, 'member');
      for (const role of ['viewer', 'admin', 'owner'] as const) {
        const changed = await patch(people[role]!.headers, stranger.id, 'viewer');
        assert.equal(changed.statusCode, 404, role);
        assert.deepEqual(changed.json(), { code: 'E_NOT_FOUND', message: 'Member not found' });
        assert.equal((await remove(people[role]!.headers, stranger.id)).statusCode, 404, role);
      }
      assert.equal((await patch(people.owner!.headers, 999_999, 'viewer')).statusCode, 404);
      assert.equal(await roleOf(stranger.id, other.id), 'member');
    });

    it('refuses a bad role or user id with a 422 in the documented shape', async () => {
      const target = await addUser(ctx.t, team.id, 'viewer');
      const role = await patch(people.owner!.headers, target.id, 'king');
      assert.equal(role.statusCode, 422);
      assert.deepEqual(role.json(), {
        code: 'E_VALIDATION_ERROR',
        message: 'The role field must be one of viewer, member, admin, owner',
        errors: [{ field: 'role', rule: 'enum', message: 'The role field must be one of viewer, member, admin, owner' }],
      });
      // Not a number, or past the database's integer keys (a query of 1e300 failed on PostgreSQL): a 422, never a 500.
      for (const bad of ['abc', '1e300', '2147483648']) {
        for (const method of ['PATCH', 'DELETE'] as const) {
          const id = await ctx.t.app.inject({ method, url: `/auth/members/${bad}`, headers: people.owner!.headers, payload: { role: 'viewer' } });
          assert.equal(id.statusCode, 422, `${method} ${bad}: ${id.body}`);
          assert.equal(id.json().code, 'E_VALIDATION_ERROR');
        }
      }
      const missing = await ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${target.id}`, headers: people.owner!.headers, payload: {} });
      assert.equal(missing.statusCode, 422);
      assert.equal(await roleOf(target.id), 'viewer');
    });

    it('needs a caller (401), and a token with every scope to manage people, as for tokens (403)', async () => {
      const target = await addUser(ctx.t, team.id, 'viewer');
      const anonymous = await ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${target.id}`, payload: { role: 'admin' } });
      assert.equal(anonymous.statusCode, 401);
      const { token } = await ctx.t.tokens.createToken(team.name, { scopes: ['links:read', 'links:write'] });
      const narrow = { authorization: `Bearer ${token}` };
      const changed = await patch(narrow, target.id, 'owner');
      assert.equal(changed.statusCode, 403);
      assert.match(changed.json().message, /every scope/);
      assert.equal((await remove(narrow, target.id)).statusCode, 403);
      const invited = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitations',
        headers: narrow,
        payload: { email: `${uniqueName('n')}@example.com`, role: 'owner' },
      });
      assert.equal(invited.statusCode, 403);
      assert.equal(await roleOf(target.id), 'viewer');
    });

    it('refuses the change from another site (the cookie is not enough)', async () => {
      const target = await addUser(ctx.t, team.id, 'viewer');
      const headers = { cookie: people.owner!.headers.cookie, origin: 'https://evil.example' };
      assert.equal((await patch(headers as never, target.id, 'admin')).statusCode, 403);
      assert.equal((await remove(headers as never, target.id)).statusCode, 403);
      assert.equal(await roleOf(target.id), 'viewer');
    });

    it('ends the sessions of a removed member in that workspace, and only there', async () => {
      const second = await ctx.t.account('second');
      const person = await member(ctx.t, team.id, 'member');
      await ctx.t.database.people.addMembership(person.userId, second.id, 'viewer');
      const elsewhere = await signIn(ctx.t, person.email);
      const moved = await switchWorkspace(ctx.t, elsewhere.headers, workspaceUuid(second.id));
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal((await ctx.t.app.inject({ url: '/v3/shorten/list', headers: person.headers })).statusCode, 200);

      assert.equal((await remove(people.admin!.headers, person.userId)).statusCode, 200);
      const after = await ctx.t.app.inject({ url: '/v3/shorten/list', headers: person.headers });
      assert.equal(after.statusCode, 401);
      const left = await ctx.t.database.db.selectFrom('sessions').select('account_id').where('user_id', '=', person.userId).execute();
      assert.deepEqual(
        left.map((row) => row.account_id),
        [second.id],
        'the session in the other workspace stays',
      );
      const me = await ctx.t.app.inject({ url: '/auth/me', headers: elsewhere.headers });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().workspace.name, second.name);
      // Signing in again lands in the workspace that remains.
      assert.equal((await signIn(ctx.t, person.email)).userId, person.userId);
    });
  });

  describe(`members: the last owner (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    it('can neither be demoted nor removed, by themselves or the workspace token', async () => {
      const team = await ctx.t.account('solo');
      const owner = await member(ctx.t, team.id, 'owner');
      const admin = await addUser(ctx.t, team.id, 'admin');
      for (const by of [owner.headers, team.headers] as const) {
        const demoted = await ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${owner.userId}`, headers: by, payload: { role: 'admin' } });
        assert.equal(demoted.statusCode, 422, demoted.body);
        assert.deepEqual(demoted.json().errors, [
          { field: 'role', rule: 'lastOwner', message: 'The last owner of a workspace cannot be demoted: make someone else owner first' },
        ]);
        const removed = await ctx.t.app.inject({ method: 'DELETE', url: `/auth/members/${owner.userId}`, headers: by });
        assert.equal(removed.statusCode, 422);
        assert.equal(removed.json().errors[0].rule, 'lastOwner');
      }
      assert.equal(await ctx.t.database.people.roleIn(owner.userId, team.id), 'owner');
      // Keeping the owner role is no demotion.
      const same = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/auth/members/${owner.userId}`,
        headers: owner.headers,
        payload: { role: 'owner' },
      });
      assert.equal(same.statusCode, 200);
      // With a second owner, the first may step down.
      await ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${admin.id}`, headers: owner.headers, payload: { role: 'owner' } });
      const stepDown = await ctx.t.app.inject({
        method: 'PATCH',
        url: `/auth/members/${owner.userId}`,
        headers: owner.headers,
        payload: { role: 'admin' },
      });
      assert.equal(stepDown.statusCode, 200, stepDown.body);
      assert.equal(await ctx.t.database.people.roleIn(admin.id, team.id), 'owner');
    });

    it('is never removed as a person (brief user remove) either: the workspaces are named, nothing changes', async () => {
      const team = await ctx.t.account('sole');
      const other = await ctx.t.account('shared');
      const owner = await addUser(ctx.t, team.id, 'owner');
      const second = await addUser(ctx.t, other.id, 'owner');
      await ctx.t.database.people.addMembership(owner.id, other.id, 'owner');
      const people = new PeopleService(ctx.t.database.people, ctx.t.accounts, BASE_PREFIX);
      await assert.rejects(people.remove(owner.email), (error: BriefError) => {
        assert.equal(error.code, 'E_VALIDATION_ERROR');
        assert.equal(error.errors?.[0]?.rule, 'lastOwner');
        assert.match(error.message, new RegExp(`${owner.email} is the last owner of ${team.name}: make someone else owner first`));
        assert.doesNotMatch(error.message, new RegExp(other.name), 'a workspace with another owner is not named');
        return true;
      });
      assert.equal(await ctx.t.database.people.roleIn(owner.id, team.id), 'owner', 'nothing removed');
      assert.equal(await ctx.t.database.people.roleIn(owner.id, other.id), 'owner');
      // With another owner in the first workspace too, the person goes, and the workspaces keep their owners.
      await ctx.t.database.people.addMembership(second.id, team.id, 'owner');
      await people.remove(owner.email);
      assert.equal(await ctx.t.database.people.userById(owner.id), undefined);
      assert.equal(await ctx.t.database.people.roleIn(second.id, team.id), 'owner');
      assert.equal(await ctx.t.database.people.removeUser(owner.id), 'missing');
    });

    it('stays when two owners demote or remove each other at once: exactly one change wins', async () => {
      for (let round = 0; round < 4; round++) {
        const team = await ctx.t.account('pair');
        const a = await addUser(ctx.t, team.id, 'owner');
        const b = await addUser(ctx.t, team.id, 'owner');
        const answers = await Promise.all([
          ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${a.id}`, headers: team.headers, payload: { role: 'viewer' } }),
          round % 2 === 0
            ? ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${b.id}`, headers: team.headers, payload: { role: 'member' } })
            : ctx.t.app.inject({ method: 'DELETE', url: `/auth/members/${b.id}`, headers: team.headers }),
        ]);
        assert.deepEqual(answers.map((r) => r.statusCode).sort(), [200, 422], answers.map((r) => r.body).join(' | '));
        const owners = await ctx.t.database.db
          .selectFrom('memberships')
          .select('user_id')
          .where('account_id', '=', team.id)
          .where('role', '=', 'owner')
          .execute();
        assert.equal(owners.length, 1, `round ${round}: one owner left`);
      }
    });
  });

  describe(`workspaces and the switcher (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    it('lists the person’s workspaces with roles, and switches only to one of them', async () => {
      const first = await ctx.t.account('first');
      const second = await ctx.t.account('second');
      const stranger = await ctx.t.account('stranger');
      const person = await member(ctx.t, first.id, 'viewer');
      await ctx.t.database.people.addMembership(person.userId, second.id, 'admin');

      const listed = await ctx.t.app.inject({ url: '/auth/workspaces', headers: person.headers });
      assert.equal(listed.statusCode, 200);
      assert.deepEqual(
        listed.json(),
        [
          { id: workspaceUuid(first.id), name: first.name, role: 'viewer' },
          { id: workspaceUuid(second.id), name: second.name, role: 'admin' },
        ].sort((x, y) => (x.name < y.name ? -1 : 1)),
      );
      assert.equal((await ctx.t.app.inject({ url: '/auth/workspaces', headers: first.headers })).statusCode, 401, 'a token is no person');

      const switchTo = (workspaceId: string, headers: Record<string, string> = person.headers) => switchWorkspace(ctx.t, headers, workspaceId);
      const moved = await switchTo(workspaceUuid(second.id));
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual(moved.json().workspace, { id: workspaceUuid(second.id), name: second.name, role: 'admin' });
      const me = await ctx.t.app.inject({ url: '/auth/me', headers: person.headers });
      assert.equal(me.json().workspace.name, second.name);
      // The admin role of the second workspace counts now: inviting works there.
      const invited = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitations',
        headers: person.headers,
        payload: { email: `${uniqueName('x')}@example.com`, role: 'member' },
      });
      assert.equal(invited.statusCode, 200, invited.body);

      const refused = await switchTo(workspaceUuid(stranger.id));
      assert.equal(refused.statusCode, 404);
      assert.deepEqual(refused.json(), { code: 'E_NOT_FOUND', message: 'Workspace not found' });
      assert.equal((await switchTo('not-a-workspace')).statusCode, 404);
      const crossSite = await switchTo(workspaceUuid(first.id), { cookie: person.headers.cookie, origin: 'https://evil.example' });
      assert.equal(crossSite.statusCode, 403);
      const noOrigin = await switchTo(workspaceUuid(first.id), { cookie: person.headers.cookie });
      assert.equal(noOrigin.statusCode, 403);
      assert.equal((await ctx.t.app.inject({ url: '/auth/me', headers: person.headers })).json().workspace.name, second.name);
      const bad = await ctx.t.app.inject({ method: 'POST', url: '/auth/workspace/switch', headers: person.headers, payload: {} });
      assert.equal(bad.statusCode, 422);
    });
  });

  describe(`an existing person joins a second workspace (${dialect})`, () => {
    const ctx = useTestApp(dialect);
    let home: TestAccount;
    let team: TestAccount;
    let admin: SignedIn;

    before(async () => {
      home = await ctx.t.account('home');
      team = await ctx.t.account('team');
      admin = await member(ctx.t, team.id, 'admin');
    });

    const invite = async (email: string, role = 'member') => {
      const response = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitations', headers: admin.headers, payload: { email, role } });
      assert.equal(response.statusCode, 200, response.body);
      const link = response.json().link as string;
      return link.slice(link.indexOf('#') + 1);
    };
    const accept = (token: string, body: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN) =>
      ctx.t.app.inject({ method: 'POST', url: '/auth/invitation/accept', headers, payload: { token, ...body } });

    it('joins with the password they have: the invitation says so, a wrong password uses nothing', async () => {
      const user = await addUser(ctx.t, home.id, 'owner');
      const token = await invite(user.email.toUpperCase(), 'member');
      const shown = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitation', payload: { token } });
      assert.equal(shown.json().existingUser, true);

      const wrong = await accept(token, { password: 'not the right password' });
      assert.equal(wrong.statusCode, 401, wrong.body);
      assert.equal(wrong.json().code, 'E_UNAUTHORIZED_ACCESS');
      assert.equal(await ctx.t.database.people.roleIn(user.id, team.id), undefined);

      const joined = await accept(token, { password: PASSWORD });
      assert.equal(joined.statusCode, 200, joined.body);
      assert.equal(joined.json().workspace.name, team.name);
      assert.equal(joined.json().workspace.role, 'member');
      assert.deepEqual(
        joined
          .json()
          .workspaces.map((w: { name: string }) => w.name)
          .sort(),
        [home.name, team.name].sort(),
      );
      assert.ok(sessionSetBy(joined.headers['set-cookie']));
      // The password is the one they had: it still signs in, and nothing else was set.
      await signIn(ctx.t, user.email, PASSWORD);
      assert.equal(await ctx.t.database.people.roleIn(user.id, home.id), 'owner');
      assert.equal((await accept(token, { password: PASSWORD })).statusCode, 422, 'once');
    });

    it('joins without a password when signed in as the invitation’s email, and keeps a role already held', async () => {
      const person = await member(ctx.t, home.id, 'viewer');
      const token = await invite(person.email, 'admin');
      const joined = await accept(token, {}, person.headers);
      assert.equal(joined.statusCode, 200, joined.body);
      assert.equal(joined.json().workspace.role, 'admin');
      assert.equal(await ctx.t.database.people.roleIn(person.userId, team.id), 'admin');

      // Someone else's session is no proof: the password is asked.
      const other = await member(ctx.t, home.id, 'viewer');
      const forOther = await invite(other.email);
      const withWrongSession = await accept(forOther, {}, person.headers);
      assert.equal(withWrongSession.statusCode, 401);

      // An invitation never demotes: an admin invited as viewer stays admin.
      const again = await invite(person.email, 'viewer');
      assert.equal((await accept(again, {}, person.headers)).statusCode, 200);
      assert.equal(await ctx.t.database.people.roleIn(person.userId, team.id), 'admin');
    });

    it('never sets a password by link for someone who exists without one (a passkey or SSO person): they join signed in', async () => {
      const made = await ctx.t.database.people.createUser(
        { email: `${uniqueName('keyonly')}@example.com`, displayName: null, passwordHash: null },
        home.id,
        'member',
      );
      const token = await invite(made!.email);
      const shown = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitation', payload: { token } });
      assert.equal(shown.json().existingUser, true);
      const refused = await accept(token, { password: 'a brand new password' });
      assert.equal(refused.statusCode, 401, refused.body);
      assert.match(refused.json().message, /sign in first/);
      assert.equal((await ctx.t.database.people.userByEmail(made!.email))?.passwordHash, null, 'no password set');
      // Their own session (as a passkey sign-in would make) is the proof.
      const sessionId = randomBytes(32).toString('base64url');
      await ctx.t.database.people.addSession({ idHash: hashToken(sessionId), userId: made!.id, accountId: home.id, now: Date.now() });
      const joined = await accept(token, {}, { cookie: `brief_session=${sessionId}`, ...SAME_ORIGIN });
      assert.equal(joined.statusCode, 200, joined.body);
      assert.equal(await ctx.t.database.people.roleIn(made!.id, team.id), 'member');
    });

    it('a new person still needs a password of at least 10 characters', async () => {
      const token = await invite(`${uniqueName('new')}@example.com`);
      const none = await accept(token, {});
      assert.equal(none.statusCode, 422);
      assert.equal(none.json().errors[0].field, 'password');
      assert.equal((await accept(token, { password: 'a long enough password' })).statusCode, 200);
    });

    it('brief user create adds an existing email to another workspace (the service the CLI calls)', async () => {
      const user = await addUser(ctx.t, home.id, 'owner');
      const people = new PeopleService(ctx.t.database.people, ctx.t.accounts, BASE_PREFIX);
      assert.deepEqual(await people.createUser({ email: user.email, role: 'viewer', workspace: team.name }), { existing: true });
      assert.equal(await ctx.t.database.people.roleIn(user.id, team.id), 'viewer');
      await assert.rejects(people.createUser({ email: user.email, role: 'admin', workspace: team.name }), /already a member of/);
      assert.equal(await ctx.t.database.people.roleIn(user.id, team.id), 'viewer');
    });
  });
}
