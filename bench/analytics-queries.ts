// The analytics query scenario of `npm run bench`: a workspace with `count` click
// events over the last 30 days, then the two calls a dashboard makes first, timed through the
// real service and store: top-countries and clicks (by day) for 30 days.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { AnalyticsRetention } from '../src/analytics/analytics-retention.js';
import { AnalyticsService } from '../src/analytics/analytics-service.js';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { rollupRows } from '../src/storage/sql/rollups.js';
import type { ClickEvent } from '../src/storage/stores/analytics.js';

const DAY = 86_400_000;
const LINKS = 1_000;
const COUNTRIES = ['US', 'DE', 'FR', 'GB', 'IN', 'BR', 'JP', 'CA', 'ES', 'IT', 'NL', 'PL', 'SE', 'MX', 'AU', 'KR', 'TR', 'AR', 'BE', 'CH'];
const BROWSERS: Array<[string, string]> = [
  ['Chrome', '131'],
  ['Chrome', '130'],
  ['Safari', '18'],
  ['Firefox', '133'],
  ['Edge', '131'],
  ['Samsung Browser', '27'],
];
const SYSTEMS = ['Windows', 'Android', 'iOS', 'Mac OS', 'Linux'];
const REFERRERS = [null, 'www.google.com', 't.co', 'news.ycombinator.com', 'www.reddit.com', 'www.linkedin.com', 'mail.example.org'];
const LANGUAGES = ['en-us', 'en-gb', 'de', 'fr', 'es', 'pt-br', 'ja', null];
const BOTS = ['Googlebot', 'Slackbot-LinkExpanding', 'facebookexternalhit', 'Twitterbot'];

export interface AnalyticsQueryResult {
  events: number;
  loadSeconds: number;
  databaseMB: number;
  /** Median of 5 runs each, in ms, after one warm-up. */
  topCountriesMs: number;
  clicksMs: number;
}

/** A skewed pick (most values rare, a few common), as real traffic is. */
function pick<T>(values: readonly T[], random: () => number): T {
  return values[Math.floor(values.length * random() ** 2)]!;
}

/** A small deterministic generator, so every run loads the same events. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

export async function benchAnalyticsQueries(dir: string, count: number, now = Date.now()): Promise<AnalyticsQueryResult> {
  const file = path.join(dir, 'analytics.db');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const migrated = openDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(migrated);
  await migrated.close();

  const started = Date.now();
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  const accountId = Number(sqlite.prepare(`insert into accounts (name, created_at) values ('bench-analytics', ?) returning id`).pluck().get(now));
  const insertLink = sqlite.prepare(
    `insert into links (code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at)
     values (?, 'bench.test', ?, null, ?, ?, null, ?, 'public', ?, null) returning id`,
  );
  const linkIds: number[] = [];
  sqlite.transaction(() => {
    for (let i = 0; i < LINKS; i++) {
      const code = `an${i.toString(36)}`;
      linkIds.push(
        Number(insertLink.pluck().get(code, code, `https://example.com/a/${i}`, createHash('sha256').update(String(i)).digest(), accountId, now)),
      );
    }
  })();
  const insertEvent = sqlite.prepare(
    `insert into click_events (time, link_id, account_id, bot, browser, browser_version, os, device_type, device_vendor, language, referrer_host, country, city, clicks)
     values (?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?, null, 1)`,
  );
  const upsert = sqlite.prepare(
    `insert into click_rollups (account_id, link_id, period, dimension, start, value, clicks) values (?, ?, ?, ?, ?, ?, ?)
     on conflict (account_id, link_id, period, dimension, start, value) do update set clicks = clicks + excluded.clicks`,
  );
  // Events in time order over the last 30 days, a day at a time: each day's rows and its rollups (the write path's own rollupRows).
  const random = generator(13);
  const from = now - 30 * DAY;
  const perDay = Math.ceil(count / 30);
  let written = 0;
  for (let day = 0; day < 30 && written < count; day++) {
    const events: Array<{ event: ClickEvent; accountId: number }> = [];
    const n = Math.min(perDay, count - written);
    for (let i = 0; i < n; i++) {
      const [browser, browserVersion] = pick(BROWSERS, random);
      const bot = random() < 0.05 ? pick(BOTS, random) : null;
      const event: ClickEvent = {
        time: from + day * DAY + Math.floor((i / n) * DAY),
        linkId: linkIds[Math.floor(LINKS * random() ** 3)]!,
        bot,
        browser,
        browserVersion,
        os: pick(SYSTEMS, random),
        deviceType: random() < 0.55 ? 'mobile' : 'desktop',
        deviceVendor: null,
        language: pick(LANGUAGES, random),
        referrerHost: pick(REFERRERS, random),
        country: pick(COUNTRIES, random),
        city: null,
        rule: null,
        clicks: 1,
      };
      events.push({ event, accountId });
    }
    sqlite.transaction(() => {
      for (const { event: e } of events) {
        insertEvent.run(e.time, e.linkId, accountId, e.bot, e.browser, e.browserVersion, e.os, e.deviceType, e.language, e.referrerHost, e.country);
      }
      for (const r of rollupRows(events, { links: true })) upsert.run(r.account_id, r.link_id, r.period, r.dimension, r.start, r.value, r.clicks);
    })();
    written += n;
  }
  // Every event's link_id rows are written above, so the late roll-up (rollUpLinkEvents) has nothing left.
  sqlite.prepare(`update click_rollup_marks set event_id = (select max(id) from click_events) where name = 'link_id'`).run();
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  const loadSeconds = (Date.now() - started) / 1000;

  const database = openDatabase({ kind: 'sqlite', path: file });
  try {
    const retention = new AnalyticsRetention(database.analytics, 400, { info: () => {}, warn: () => {} });
    const service = new AnalyticsService(database.analytics, { own: never, shortUrls: never }, retention, () => now);
    const caller = { accountId, anonymous: false };
    const timed = async (call: () => Promise<unknown>) => {
      await call(); // warm-up: the pages it reads into the cache
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t0 = process.hrtime.bigint();
        await call();
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      return Number(times.sort((a, b) => a - b)[2]!.toFixed(1));
    };
    const topCountriesMs = await timed(() => service.top(caller, 'countries', { range: '30d', timezone: 'Europe/Paris', limit: 10 }));
    const clicksMs = await timed(() => service.clicks(caller, { range: '30d', granularity: 'day', timezone: 'Europe/Paris' }));
    const sanity = await service.clicks(caller, { range: '30d', granularity: 'day', timezone: 'Europe/Paris' });
    if (sanity.data.reduce((sum, d) => sum + d.click, 0) === 0) throw new Error('analytics bench: no clicks counted');
    const databaseMB = Number((fs.statSync(file).size / 1048576).toFixed(0));
    return { events: written, loadSeconds: Number(loadSeconds.toFixed(1)), databaseMB, topCountriesMs, clicksMs };
  } finally {
    await database.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  }
}

const never = (): never => {
  throw new Error('not used by this benchmark');
};
