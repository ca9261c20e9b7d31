// Removing a person revokes everything they made (issue 37, finding 2), over HTTP on every dialect:
// DELETE /auth/members/{id} revokes their tokens and pending invitations in that workspace and ends their
// sessions there; `brief user remove` does so in every workspace; an invitation a removed person issued to
// themselves does not let them back in; a role lowered revokes their pending invitations above it.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PeopleService } from '../../src/people/people-service.js';
import { BASE_PREFIX, type TestAccount, uniqueName, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { member, PASSWORD, SAME_ORIGIN, type SignedIn, signIn } from '../support/people.js';

type Headers = Record<string, string>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const secretOf = (link: string) => link.slice(link.indexOf('#') + 1);

for (const dialect of dialects) {
  describe(`removal revokes what a person made (${dialect})`, () => {
    // Many people sign in here from one address: the sign-in limit's own tests are elsewhere.
    const ctx = useTestApp(dialect, { RATE_LIMIT_SIGN_IN_ADDRESS: '0' });
    let team: TestAccount;
    let owner: SignedIn;

    before(async () => {
      team = await ctx.t.account('removal');
      owner = await member(ctx.t, team.id, 'owner');
    });

    const mint = async (by: Headers, body: Record<string, unknown> = {}) => {
      const made = await ctx.t.app.inject({ method: 'POST', url: '/v3/tokens', headers: by, payload: { name: uniqueName('tok'), ...body } });
      assert.equal(made.statusCode, 200, made.body);
      return { id: made.json().id as number, headers: bearer(made.json().token) };
    };
    const invite = async (by: Headers, email: string, role: string) => {
      const made = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitations', headers: by, payload: { email, role } });
      assert.equal(made.statusCode, 200, made.body);
      return secretOf(made.json().link);
    };
    /** What POST /auth/invitation says of an invitation: 200, or the 422's rule. */
    const invitationState = async (token: string) => {
      const shown = await ctx.t.app.inject({ method: 'POST', url: '/auth/invitation', payload: { token } });
      return shown.statusCode === 200 ? 'valid' : `${shown.statusCode} ${shown.json().errors?.[0]?.rule}`;
    };
    const works = async (headers: Headers) => (await ctx.t.app.inject({ url: '/v3/shorten/list', headers })).statusCode;
    const removeMember = (by: Headers, userId: number) => ctx.t.app.inject({ method: 'DELETE', url: `/auth/members/${userId}`, headers: by });

    it('revokes the removed member’s tokens, pending invitations and sessions in that workspace, at once', async () => {
      const other = await ctx.t.account('elsewhere');
      const person = await member(ctx.t, team.id, 'admin');
      await ctx.t.database.people.addMembership(person.userId, other.id, 'admin');
      const own = await mint(person.headers);
      const ownChild = await mint(own.headers);
      const pending = await invite(person.headers, `${uniqueName('new')}@example.com`, 'member');
      // Made in the other workspace: a removal from this one leaves it.
      const elsewhere = await signIn(ctx.t, person.email);
      const moved = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/workspace/switch',
        headers: elsewhere.headers,
        payload: {
          workspaceId: (await ctx.t.app.inject({ url: '/auth/workspaces', headers: elsewhere.headers }))
            .json()
            .find((w: { name: string }) => w.name === other.name).id,
        },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      const otherToken = await mint(elsewhere.headers);
      // A token of someone else stays.
      const ownersToken = await mint(owner.headers);
      for (const headers of [own.headers, ownChild.headers, person.headers, otherToken.headers]) assert.equal(await works(headers), 200);
      assert.equal(await invitationState(pending), 'valid');

      const removed = await removeMember(owner.headers, person.userId);
      assert.equal(removed.statusCode, 200, removed.body);

      assert.equal(await works(own.headers), 401);
      assert.equal(await works(ownChild.headers), 401, 'a token its token made too');
      assert.equal(await works(person.headers), 401, 'the session in the workspace');
      assert.equal(await invitationState(pending), '422 revoked');
      const revoked = await ctx.t.database.db.selectFrom('tokens').select(['id', 'revoked_at']).where('created_by', '=', person.userId).execute();
      assert.deepEqual(
        revoked.filter((row) => row.revoked_at === null).map((row) => row.id),
        [otherToken.id],
        'revoked in the database, all but the one of the other workspace',
      );
      assert.equal(await works(otherToken.headers), 200);
      assert.equal(await works(elsewhere.headers), 200);
      assert.equal(await works(ownersToken.headers), 200);
      const listed = (await ctx.t.app.inject({ url: '/v3/tokens', headers: owner.headers })).json() as Array<{ id: number }>;
      assert.ok(!listed.some((token) => token.id === own.id), 'gone from the list');
    });

    it('does not let a removed owner back in with the owner invitation they issued to themselves', async () => {
      const person = await member(ctx.t, team.id, 'owner');
      const selfInvitation = await invite(person.headers, person.email, 'owner');
      assert.equal((await removeMember(owner.headers, person.userId)).statusCode, 200);
      assert.equal(await ctx.t.database.people.roleIn(person.userId, team.id), undefined);

      const back = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitation/accept',
        headers: SAME_ORIGIN,
        payload: { token: selfInvitation, password: PASSWORD },
      });
      assert.equal(back.statusCode, 422, back.body);
      assert.deepEqual(back.json().errors, [{ field: 'token', rule: 'revoked', message: 'This invitation has been withdrawn; ask for a new one' }]);
      assert.equal(await ctx.t.database.people.roleIn(person.userId, team.id), undefined, 'not back in');
    });

    it('leaves no live token or invitation of a person whose removal races with their making one', async () => {
      for (let round = 0; round < 4; round++) {
        const person = await member(ctx.t, team.id, 'owner');
        const answers = await Promise.all([
          ctx.t.app.inject({ method: 'POST', url: '/auth/invitations', headers: person.headers, payload: { email: person.email, role: 'owner' } }),
          ctx.t.app.inject({ method: 'POST', url: '/v3/tokens', headers: person.headers, payload: { name: 'racing' } }),
          removeMember(owner.headers, person.userId),
        ]);
        assert.equal(answers[2]!.statusCode, 200, answers[2]!.body);
        const invitations = await ctx.t.database.db
          .selectFrom('invitations')
          .select('id')
          .where('created_by', '=', person.userId)
          .where('revoked_at', 'is', null)
          .execute();
        const tokens = await ctx.t.database.db
          .selectFrom('tokens')
          .select('id')
          .where('created_by', '=', person.userId)
          .where('revoked_at', 'is', null)
          .execute();
        assert.deepEqual([invitations, tokens], [[], []], `round ${round}: ${answers.map((r) => r.statusCode).join(', ')}`);
      }
    });

    it('revokes, when a role is lowered, the pending invitations that person issued above the new role, and no others', async () => {
      const person = await member(ctx.t, team.id, 'owner');
      const asOwner = await invite(person.headers, `${uniqueName('o')}@example.com`, 'owner');
      const asAdmin = await invite(person.headers, `${uniqueName('a')}@example.com`, 'admin');
      const asMember = await invite(person.headers, `${uniqueName('m')}@example.com`, 'member');
      const byOwner = await invite(owner.headers, `${uniqueName('x')}@example.com`, 'owner');
      const patch = (role: string) =>
        ctx.t.app.inject({ method: 'PATCH', url: `/auth/members/${person.userId}`, headers: owner.headers, payload: { role } });

      assert.equal((await patch('admin')).statusCode, 200);
      assert.deepEqual(await Promise.all([asOwner, asAdmin, asMember, byOwner].map(invitationState)), ['422 revoked', 'valid', 'valid', 'valid']);
      assert.equal((await patch('member')).statusCode, 200);
      assert.deepEqual(await Promise.all([asAdmin, asMember].map(invitationState)), ['422 revoked', 'valid']);
      // Promoted again, a revoked invitation stays revoked.
      assert.equal((await patch('owner')).statusCode, 200);
      assert.equal(await invitationState(asOwner), '422 revoked');
      const accepted = await ctx.t.app.inject({
        method: 'POST',
        url: '/auth/invitation/accept',
        headers: SAME_ORIGIN,
        payload: { token: asMember, password: 'a long enough password' },
      });
      assert.equal(accepted.statusCode, 200, accepted.body);
    });

    it('brief user remove revokes the person’s tokens and pending invitations in every workspace, and ends every session', async () => {
      const other = await ctx.t.account('second');
      const person = await member(ctx.t, team.id, 'admin');
      await ctx.t.database.people.addMembership(person.userId, other.id, 'owner');
      await ctx.t.database.people.addMembership(owner.userId, other.id, 'owner');
      const token = await mint(person.headers);
      const pending = await invite(person.headers, `${uniqueName('p')}@example.com`, 'admin');
      const viaOther = await ctx.t.database.accounts.addToken({
        accountId: other.id,
        hash: uniqueName('made-elsewhere'),
        label: null,
        expiresAt: null,
        scopes: null,
        createdBy: person.userId,
        role: 'owner',
      });
      assert.ok(viaOther);

      await new PeopleService(ctx.t.database.people, ctx.t.accounts, BASE_PREFIX).remove(person.email);

      assert.equal(await ctx.t.database.people.userById(person.userId), undefined);
      assert.equal(await works(token.headers), 401);
      assert.equal(await works(person.headers), 401);
      assert.equal(await invitationState(pending), '422 revoked');
      const live = await ctx.t.database.db
        .selectFrom('tokens')
        .select('id')
        .where('created_by', '=', person.userId)
        .where('revoked_at', 'is', null)
        .execute();
      assert.deepEqual(live, [], 'in both workspaces');
      const sessions = await ctx.t.database.db.selectFrom('sessions').select('id_hash').where('user_id', '=', person.userId).execute();
      assert.deepEqual(sessions, []);
    });
  });
}
