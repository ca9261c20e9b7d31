// The webhook endpoints' API (issue 41): add (the secret once), list (never a secret), remove, rotate, re-enable; the
// webhooks:write scope and the admin role needed; another workspace's webhook not found; bad input a 422
// naming its field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newEventId, pendingRow } from '../../src/storage/sql/webhook-outbox.js';
import { useTestApp } from '../support/app.js';
import { createStoreLink, dialects } from '../support/database.js';
import { member } from '../support/people.js';

for (const dialect of dialects) {
  describe(`webhook API (${dialect})`, () => {
    const ctx = useTestApp(dialect, { WEBHOOK_ALLOW_HOSTS: 'localhost' });

    const call = (account: { readonly headers: Record<string, string> } | undefined, method: string, url: string, body?: unknown) =>
      ctx.t.app.inject({
        method: method as 'GET',
        url,
        headers: { ...account?.headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
        payload: body === undefined ? undefined : JSON.stringify(body),
      });

    it('adds a webhook, answers its secret once, and lists it without the secret', async () => {
      const owner = await ctx.t.account('hooks');
      const made = await call(owner, 'POST', '/v3/webhooks', {
        url: 'https://hooks.example.com/brief',
        events: ['link.deleted', 'link.created', 'link.created'],
      });
      assert.equal(made.statusCode, 200, made.body);
      const hook = made.json();
      assert.match(hook.secret, /^whsec_[A-Za-z0-9+/=]{44}$/);
      assert.equal(hook.url, 'https://hooks.example.com/brief');
      assert.deepEqual(hook.events, ['link.created', 'link.deleted'], 'known order, no repeats');
      assert.equal(hook.includeBots, false);
      assert.equal(hook.previousSecretUntil, null);
      assert.equal(hook.disabledAt, null);
      assert.ok(Date.parse(hook.createdAt) > Date.now() - 60_000);

      const listed = await call(owner, 'GET', '/v3/webhooks');
      assert.equal(listed.statusCode, 200);
      const entries = listed.json();
      assert.equal(entries.length, 1);
      assert.deepEqual(Object.keys(entries[0]).sort(), [
        'createdAt',
        'disabledAt',
        'disabledReason',
        'events',
        'id',
        'includeBots',
        'previousSecretUntil',
        'url',
      ]);
      assert.ok(!listed.body.includes(hook.secret), 'never the secret again');
      const bots = (await call(owner, 'POST', '/v3/webhooks', { url: 'https://b.example/', events: ['link.clicked'], includeBots: true })).json();
      assert.equal(bots.includeBots, true);
      assert.deepEqual(
        (await call(owner, 'GET', '/v3/webhooks')).json().map((entry: { id: number }) => entry.id),
        [hook.id, bots.id],
      );
    });

    it('refuses what it would never send to, and bad events, with 422 naming the field', async () => {
      const owner = await ctx.t.account('bad');
      const cases: Array<[unknown, string, RegExp]> = [
        [{ url: 'http://hooks.example.com/', events: ['link.created'] }, 'url', /only https/],
        [{ url: 'https://127.0.0.1/', events: ['link.created'] }, 'url', /not a public address/],
        [{ url: 'https://[::ffff:10.0.0.1]/', events: ['link.created'] }, 'url', /not a public address/],
        [{ url: 'https://169.254.169.254/latest/meta-data/', events: ['link.created'] }, 'url', /not a public address/],
        [{ url: 'https://user:pass@hooks.example.com/', events: ['link.created'] }, 'url', /user name/],
        [{ url: 'not a url', events: ['link.created'] }, 'url', /not a URL/],
        [{ url: `https://hooks.example.com/${'a'.repeat(2000)}`, events: ['link.created'] }, 'url', /2000/],
        [{ url: 'https://hooks.example.com/', events: [] }, 'events', /at least one event/],
        [{ url: 'https://hooks.example.com/', events: ['link.visited'] }, 'events', /Unknown event "link.visited"/],
        [{ url: 'https://hooks.example.com/' }, 'events', /events/],
        [{ events: ['link.created'] }, 'url', /url/],
        [{ url: 'https://hooks.example.com/', events: ['link.created'], includeBots: 'yes' }, 'includeBots', /includeBots/],
      ];
      for (const [body, field, message] of cases) {
        const answer = await call(owner, 'POST', '/v3/webhooks', body);
        assert.equal(answer.statusCode, 422, `${JSON.stringify(body)}: ${answer.body}`);
        assert.equal(answer.json().errors?.[0]?.field, field, answer.body);
        assert.match(answer.json().message, message, JSON.stringify(body));
      }
      assert.deepEqual((await call(owner, 'GET', '/v3/webhooks')).json(), []);
      // WEBHOOK_ALLOW_HOSTS: http and a loopback host for local development.
      assert.equal((await call(owner, 'POST', '/v3/webhooks', { url: 'http://localhost:8080/hook', events: ['link.created'] })).statusCode, 200);
    });

    it('removes a webhook; another workspace’s is not found and stays', async () => {
      const owner = await ctx.t.account('remove');
      const other = await ctx.t.account('other');
      const hook = (await call(owner, 'POST', '/v3/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).json();
      const stranger = await call(other, 'DELETE', `/v3/webhooks/${hook.id}`);
      assert.equal(stranger.statusCode, 404);
      assert.equal(stranger.json().message, 'Webhook not found');
      assert.equal((await call(other, 'POST', `/v3/webhooks/${hook.id}/rotate`)).statusCode, 404);
      assert.equal((await call(other, 'GET', '/v3/webhooks')).json().length, 0);
      const removed = await call(owner, 'DELETE', `/v3/webhooks/${hook.id}`);
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual(removed.json(), { success: true });
      assert.equal((await call(owner, 'DELETE', `/v3/webhooks/${hook.id}`)).statusCode, 404);
      assert.deepEqual((await call(owner, 'GET', '/v3/webhooks')).json(), []);
      assert.equal((await call(owner, 'DELETE', '/v3/webhooks/99999999999')).statusCode, 422);
    });

    it('rotates the secret: a new one answered once, the rotation shown until the old one stops signing', async () => {
      const owner = await ctx.t.account('rotate');
      const hook = (await call(owner, 'POST', '/v3/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).json();
      const rotated = await call(owner, 'POST', `/v3/webhooks/${hook.id}/rotate`);
      assert.equal(rotated.statusCode, 200, rotated.body);
      const fresh = rotated.json();
      assert.match(fresh.secret, /^whsec_/);
      assert.notEqual(fresh.secret, hook.secret);
      const until = Date.parse(fresh.previousSecretUntil);
      assert.ok(Math.abs(until - (Date.now() + 24 * 3_600_000)) < 60_000, fresh.previousSecretUntil);
      const stored = await ctx.t.database.webhooks.endpointOf(owner.id, hook.id);
      assert.equal(stored?.secret, fresh.secret);
      assert.equal(stored?.previousSecret, hook.secret);
      // Both secrets are real Standard Webhooks keys.
      for (const secret of [hook.secret, fresh.secret]) assert.ok(new Webhook(secret));
      assert.equal((await call(owner, 'GET', '/v3/webhooks')).json()[0].previousSecretUntil, fresh.previousSecretUntil);
    });

    it('turns a disabled webhook back on (and off): its reason cleared, what failed meanwhile kept failed', async () => {
      const owner = await ctx.t.account('reenable');
      const other = await ctx.t.account('reenable-other');
      const hook = (await call(owner, 'POST', '/v3/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).json();
      const { db } = ctx.t.database;
      // As the worker leaves it after 3 days of failures, with a delivery failed unsent.
      await db
        .updateTable('webhook_endpoints')
        .set({ failing_since: 1, disabled_at: 2, disabled_reason: 'Every delivery failed for 3 days; the last: answered 500.' })
        .where('id', '=', hook.id)
        .execute();
      await db
        .insertInto('webhook_deliveries')
        .values({ ...pendingRow(hook.id, newEventId(), 'link.created', '{}', Date.now()), status: 'failed', last_error: 'the webhook is disabled' })
        .execute();
      const listed = (await call(owner, 'GET', '/v3/webhooks')).json()[0];
      assert.match(listed.disabledReason, /failed for 3 days/);
      await createStoreLink(ctx.t.database, owner.id, 'while-disabled');
      const rows = async () =>
        db.selectFrom('webhook_deliveries').select(['status', 'type']).where('endpoint_id', '=', hook.id).orderBy('id').execute();
      assert.equal((await rows()).length, 1, 'a disabled webhook is written no event');

      assert.equal((await call(other, 'PATCH', `/v3/webhooks/${hook.id}`, { enabled: true })).statusCode, 404);
      for (const body of [{}, { enabled: 'yes' }]) {
        const bad = await call(owner, 'PATCH', `/v3/webhooks/${hook.id}`, body);
        assert.equal(bad.statusCode, 422, bad.body);
        assert.equal(bad.json().errors?.[0]?.field, 'enabled', bad.body);
      }
      const enabled = await call(owner, 'PATCH', `/v3/webhooks/${hook.id}`, { enabled: true });
      assert.equal(enabled.statusCode, 200, enabled.body);
      assert.equal(enabled.json().disabledAt, null);
      assert.equal(enabled.json().disabledReason, null);
      assert.equal(enabled.json().url, 'https://hooks.example.com/');
      const stored = await db.selectFrom('webhook_endpoints').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
      assert.deepEqual([stored.failing_since, stored.disabled_at, stored.disabled_reason], [null, null, null]);
      await createStoreLink(ctx.t.database, owner.id, 'after-enabled');
      const after = await rows();
      assert.equal(after[0]!.status, 'failed', 'what failed while disabled stays failed');
      assert.deepEqual(
        after.slice(1).map((row) => row.type),
        ['link.created'],
      );

      const disabled = await call(owner, 'PATCH', `/v3/webhooks/${hook.id}`, { enabled: false });
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.ok(disabled.json().disabledAt);
      assert.match(disabled.json().disabledReason, /Turned off/);
      await createStoreLink(ctx.t.database, owner.id, 'after-disabled');
      assert.equal((await rows()).length, 2);
      assert.equal((await call(owner, 'PATCH', '/v3/webhooks/99999', { enabled: true })).statusCode, 404);
    });

    it('needs webhooks:write on a token and the admin role or above', async () => {
      const owner = await ctx.t.account('scoped');
      const narrow = (await call(owner, 'POST', '/v3/tokens', { name: 'links only', scopes: ['links:read', 'links:write'] })).json();
      const headers = { authorization: `Bearer ${narrow.token}` };
      const refused = await call({ headers }, 'GET', '/v3/webhooks');
      assert.equal(refused.statusCode, 403);
      assert.match(refused.json().message, /webhooks:write/);
      const scoped = (await call(owner, 'POST', '/v3/tokens', { name: 'hooks', scopes: ['webhooks:write'] })).json();
      assert.equal((await call({ headers: { authorization: `Bearer ${scoped.token}` } }, 'GET', '/v3/webhooks')).statusCode, 200);

      const memberSession = await member(ctx.t, owner.id, 'member');
      const byMember = await call(memberSession, 'POST', '/v3/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] });
      assert.equal(byMember.statusCode, 403);
      assert.match(byMember.json().message, /A member may not manage the workspace's webhooks/);
      assert.equal((await call(memberSession, 'GET', '/v3/webhooks')).statusCode, 403);
      const admin = await member(ctx.t, owner.id, 'admin');
      assert.equal((await call(admin, 'POST', '/v3/webhooks', { url: 'https://hooks.example.com/', events: ['link.created'] })).statusCode, 200);
      assert.equal((await call(undefined, 'GET', '/v3/webhooks')).statusCode, 401);
    });
  });
}
