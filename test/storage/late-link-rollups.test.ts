// SQLite rolls a workspace's per-link figures (the link_id rollup rows behind top-short-links) up
// from the stored events after they are written (rollUpLinkEvents, decision 0013): the background
// thread within a second, a query of them at once, and after a kill the next start. Every event
// is counted once, whichever of these gets to it.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Database, openDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrate.js';
import type { ClickEvent } from '../../src/storage/stores/analytics.js';
import { createStoreLink } from '../support/database.js';

const QUARTER = 900_000;
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 6, 1);

const event = (linkId: number, time: number, clicks = 1): ClickEvent => ({
  time,
  linkId,
  bot: null,
  browser: 'Firefox',
  browserVersion: '131',
  os: null,
  deviceType: 'desktop',
  deviceVendor: null,
  language: null,
  referrerHost: null,
  country: 'FR',
  city: null,
  rule: null,
  clicks,
});

async function open(file: string): Promise<Database> {
  const database = openDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(database);
  return database;
}

async function addLinks(database: Database, accountId: number, n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(await createStoreLink(database, accountId, `late/${accountId}/${i}`));
  return ids;
}

/** The link_id rows as stored, per period: link id → clicks (no query, so nothing is rolled up by reading). */
async function storedLinkRows(database: Database, accountId: number, period: 'quarter' | 'day'): Promise<Map<string, number>> {
  const rows = await database.db
    .selectFrom('click_rollups')
    .select(['value', 'clicks'])
    .where('account_id', '=', accountId)
    .where('link_id', '=', 0)
    .where('period', '=', period)
    .where('dimension', '=', 'link_id')
    .execute();
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.value, (counts.get(row.value) ?? 0) + Number(row.clicks));
  return counts;
}

const counted = (events: ClickEvent[]) => {
  const counts = new Map<string, number>();
  for (const e of events) counts.set(String(e.linkId), (counts.get(String(e.linkId)) ?? 0) + e.clicks);
  return counts;
};

describe('SQLite: the per-link workspace rows rolled up after the write', () => {
  let dir: string;
  let file: string;
  let database: Database;
  let accountId: number;
  let linkIds: number[];
  const events: ClickEvent[] = [];
  const query = () => ({ accountId, from: BASE, to: BASE + DAY, detailFrom: 0 });

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-late-links-'));
    file = path.join(dir, 'brief.db');
    database = await open(file);
    accountId = (await database.accounts.create('late-links'))!.id;
    linkIds = await addLinks(database, accountId, 3);
  });
  after(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the background thread writes them within a second or so, with no query asking', async () => {
    assert.ok(database.dialect === 'sqlite');
    const batch = linkIds.flatMap((id, i) => [event(id, BASE + i * QUARTER, 2), event(id, BASE + DAY / 2 + i * 1000)]);
    events.push(...batch);
    await database.analytics.add({ writer: 'late', seq: 1, events: batch });
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await storedLinkRows(database, accountId, 'day')).size < linkIds.length) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.deepEqual(await storedLinkRows(database, accountId, 'day'), counted(events));
    assert.deepEqual(await storedLinkRows(database, accountId, 'quarter'), counted(events));
  });

  it('a query of the top links counts events written just before it', async () => {
    const batch = [event(linkIds[0]!, BASE + 3 * QUARTER, 5)];
    events.push(...batch);
    await database.analytics.add({ writer: 'late', seq: 2, events: batch });
    const top = await database.analytics.topCounts(query(), 'link_id');
    assert.deepEqual(new Map(top.map((r) => [r.value, r.clicks])), counted(events));
  });

  it('after a kill, the events stored without their rows are counted once, after the restart', async () => {
    await database.close();
    // What a kill -9 between an event write and its roll-up leaves: events past the mark.
    const killed = new (await import('better-sqlite3')).default(file);
    const insert = killed.prepare(
      `insert into click_events (time, link_id, account_id, bot, browser, browser_version, os, device_type, device_vendor, language, referrer_host, country, city, clicks)
       values (?, ?, ?, null, 'Firefox', '131', null, 'desktop', null, null, null, 'FR', null, ?)`,
    );
    const unrolled = [event(linkIds[1]!, BASE + 7 * QUARTER, 3), event(linkIds[2]!, BASE + 9 * QUARTER)];
    for (const e of unrolled) insert.run(e.time, e.linkId, accountId, e.clicks);
    killed.close();
    events.push(...unrolled);

    database = await open(file);
    for (let round = 0; round < 2; round++) {
      const top = await database.analytics.topCounts(query(), 'link_id');
      assert.deepEqual(new Map(top.map((r) => [r.value, r.clicks])), counted(events), `read ${round + 1}`);
    }
    assert.deepEqual(await storedLinkRows(database, accountId, 'day'), counted(events));
  });

  it('without the thread (an in-memory database), the query rolls them up itself', async () => {
    const memory = await open(':memory:');
    try {
      const account = (await memory.accounts.create('late-memory'))!.id;
      const ids = await addLinks(memory, account, 2);
      const batch = [event(ids[0]!, BASE + QUARTER, 4), event(ids[1]!, BASE + 2 * QUARTER)];
      await memory.analytics.add({ writer: 'late-memory', seq: 1, events: batch });
      assert.equal((await storedLinkRows(memory, account, 'day')).size, 0, 'not written with the events');
      const top = await memory.analytics.topCounts({ accountId: account, from: BASE, to: BASE + DAY, detailFrom: 0 }, 'link_id');
      assert.deepEqual(new Map(top.map((r) => [r.value, r.clicks])), counted(batch));
    } finally {
      await memory.close();
    }
  });
});
