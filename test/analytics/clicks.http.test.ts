// Click analytics, querying: GET /v3/shorten/analytics/clicks, its figures exactly (both
// granularities, a zone other than UTC, bots and other workspaces left out), and its errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { workspaceUuid } from '../../src/accounts/ids.js';
import type { ClickEvent } from '../../src/storage/stores/analytics.js';
import { BASE_HOST, buildTestApp, qs, type TestAccount, useTestApp } from '../support/app.js';
import { dialects } from '../support/database.js';
import { personVisit } from '../support/events.js';
import { awayFromBoundary } from '../support/time.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let counter = 0;
let seq = 0;

const event = (linkId: number, time: number, bot: string | null = null): ClickEvent => ({ ...personVisit(linkId, time), bot });

/** `YYYY-MM-DD` and `HH:MM` of an instant in a zone, by Intl alone. */
function wallOf(instant: number, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

for (const dialect of dialects) {
  describe(`GET /v3/shorten/analytics/clicks (${dialect})`, () => {
    const ctx = useTestApp(dialect);

    const makeLink = async (account: TestAccount) => {
      const slug = `stats-${++counter}`;
      const res = await ctx.t.app.inject({ url: `/v2/shorten?${qs({ url: `https://example.com/c/${counter}`, slug })}`, headers: account.headers });
      assert.equal(res.statusCode, 200, res.body);
      const row = await ctx.t.database.db.selectFrom('links').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
      return { id: Number(row.id), slug };
    };
    const store = (events: ClickEvent[]) => ctx.t.database.analytics.add({ writer: `clicks-test-${dialect}`, seq: ++seq, events });
    const clicks = (account: TestAccount | null, query: Record<string, string>) =>
      ctx.t.app.inject({ url: `/v3/shorten/analytics/clicks?${qs(query)}`, headers: account?.headers ?? {} });

    it('counts clicks per day of the last 7 days in UTC, today included, zero-filled, without bots or other workspaces', async () => {
      const [owner, other] = [await ctx.t.account(), await ctx.t.account()];
      const [a, b] = [await makeLink(owner), await makeLink(owner)];
      const theirs = await makeLink(other);
      const now = await awayFromBoundary();
      const today = now - (now % DAY);
      await store([
        event(a.id, today + 60_000),
        event(b.id, today),
        event(a.id, today - DAY + 12 * HOUR),
        event(a.id, today - 6 * DAY),
        event(a.id, today - 6 * DAY - 1), // the day before the range
        event(a.id, today + 1000, 'Googlebot'),
        event(theirs.id, today + 1000),
      ]);
      const res = await clicks(owner, { range: '7d', granularity: 'day', timezone: 'Etc/UTC' });
      assert.equal(res.statusCode, 200, res.body);
      const dates = Array.from({ length: 7 }, (_, i) => new Date(today - (6 - i) * DAY).toISOString().slice(0, 10));
      assert.deepEqual(res.json(), {
        start: new Date(today - 6 * DAY).toISOString(),
        end: new Date(today + DAY).toISOString(),
        data: dates.map((date, i) => ({ date, click: [1, 0, 0, 0, 0, 1, 2][i] })),
      });
      // The defaults are 7d, by day, in Etc/UTC.
      assert.deepEqual((await clicks(owner, {})).json(), res.json());
      // One link only: `link=domain/slug`.
      const one = await clicks(owner, { range: '7d', link: `${BASE_HOST}/${b.slug}` });
      assert.deepEqual(
        one.json().data.map((d: { click: number }) => d.click),
        [0, 0, 0, 0, 0, 0, 1],
      );
    });

    it('counts clicks per hour of the last 24 hours, labelled with the zone’s wall time and offset', async () => {
      const owner = await ctx.t.account();
      const link = await makeLink(owner);
      const now = await awayFromBoundary();
      const hour = now - (now % HOUR);
      await store([event(link.id, hour + 1000), event(link.id, hour - 23 * HOUR), event(link.id, hour - 23 * HOUR - 1)]);
      const res = await clicks(owner, { range: '24h', granularity: 'hour' });
      assert.equal(res.statusCode, 200, res.body);
      const body = res.json();
      assert.equal(body.start, new Date(hour - 23 * HOUR).toISOString());
      assert.equal(body.end, new Date(hour + HOUR).toISOString());
      assert.equal(body.data.length, 24);
      assert.deepEqual(body.data[0], { date: `${new Date(hour - 23 * HOUR).toISOString().slice(0, 19)}+00:00`, click: 1 });
      assert.deepEqual(body.data[23], { date: `${new Date(hour).toISOString().slice(0, 19)}+00:00`, click: 1 });
      assert.equal(
        body.data.reduce((sum: number, d: { click: number }) => sum + d.click, 0),
        2,
      );
    });

    it('cuts hours and days where the time zone does (Asia/Kolkata: +05:30; America/New_York)', async () => {
      const owner = await ctx.t.account();
      const link = await makeLink(owner);
      const now = await awayFromBoundary();
      await store([event(link.id, now - 1000)]);
      const kolkata = (await clicks(owner, { range: '24h', granularity: 'hour', timezone: 'Asia/Kolkata' })).json();
      assert.match(kolkata.start, /:30:00\.000Z$/);
      assert.equal(kolkata.data.length, 24);
      for (const point of kolkata.data) assert.match(point.date, /^\d{4}-\d{2}-\d{2}T\d{2}:00:00\+05:30$/);
      const wall = wallOf(now, 'Asia/Kolkata');
      assert.deepEqual(kolkata.data[23], { date: `${wall.date}T${wall.time.slice(0, 2)}:00:00+05:30`, click: 1 });

      const newYork = (await clicks(owner, { range: '3d', granularity: 'day', timezone: 'America/New_York' })).json();
      assert.deepEqual(wallOf(Date.parse(newYork.start), 'America/New_York').time, '00:00');
      assert.deepEqual(wallOf(Date.parse(newYork.end), 'America/New_York').time, '00:00');
      assert.equal(newYork.data.length, 3);
      assert.deepEqual(newYork.data[2], { date: wallOf(now, 'America/New_York').date, click: 1 });
      assert.deepEqual(newYork.data[0].date, wallOf(Date.parse(newYork.start), 'America/New_York').date);
    });

    it('counts the redirects the app served, people only', async () => {
      const owner = await ctx.t.account();
      const link = await makeLink(owner);
      const visitor = await buildTestApp(ctx.t.database, { CLICK_FLUSH_MS: '600000' });
      for (const agent of [CHROME, CHROME, CHROME, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)']) {
        const res = await visitor.app.inject({ url: `/${link.slug}`, headers: { host: BASE_HOST, 'user-agent': agent } });
        assert.equal(res.statusCode, 301);
      }
      await visitor.close(); // writes the events
      const body = (await clicks(owner, { range: '1d', link: `${BASE_HOST}/${link.slug}` })).json();
      assert.equal(body.data.length, 1);
      assert.equal(body.data[0].click, 3);
    });

    it('answers JSON errors: 401 without a valid token, 404 for another workspace or link, 422 for a bad value', async () => {
      const owner = await ctx.t.account();
      const other = await ctx.t.account();
      const theirs = await makeLink(other);
      const expect = async (res: Awaited<ReturnType<typeof clicks>>, status: number, code: string, message?: string) => {
        assert.equal(res.statusCode, status, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        assert.equal(res.json().code, code);
        if (message) assert.equal(res.json().message, message);
      };
      await expect(await clicks(null, {}), 401, 'E_UNAUTHORIZED_ACCESS', 'This call needs a bearer token');
      await expect(
        await ctx.t.app.inject({ url: '/v3/shorten/analytics/clicks', headers: { authorization: 'Bearer nope' } }),
        401,
        'E_UNAUTHORIZED_ACCESS',
      );
      await expect(await clicks(owner, { workspaceId: workspaceUuid(other.id) }), 404, 'E_NOT_FOUND', 'Workspace not found');
      assert.equal((await clicks(owner, { workspaceId: workspaceUuid(owner.id) })).statusCode, 200);
      assert.equal((await clicks(owner, { workspaceId: 'undefined' })).statusCode, 200);
      await expect(await clicks(owner, { link: `${BASE_HOST}/${theirs.slug}` }), 404, 'E_NOT_FOUND', 'Link not found');
      await expect(await clicks(owner, { link: 'no-slash' }), 422, 'E_VALIDATION_ERROR', 'The link field must be domain/slug');
      await expect(await clicks(owner, { range: '2d' }), 422, 'E_VALIDATION_ERROR', 'The selected range is invalid');
      await expect(await clicks(owner, { granularity: 'minute' }), 422, 'E_VALIDATION_ERROR', 'The selected granularity is invalid');
      for (const timezone of ['Mars/Olympus_Mons', '', 'Europe/Paris/x']) {
        await expect(
          await clicks(owner, { timezone }),
          422,
          'E_VALIDATION_ERROR',
          'The timezone field must be an IANA time zone name, such as Europe/Paris',
        );
      }
    });
  });
}
