// `node --import tsx bench/event-write-cost.ts [LINKS] [BATCHES]`: CPU µs per click event of the
// SQLite background thread's event write alone (as the thread runs it: one transaction a batch, the
// link_id rows caught up every LINK_ROLLUP_EVENTS), on a file preloaded like the benchmark's, with
// batches of EVENTS (default 4,096, as VisitRecorder writes them) of distinct random links (the cold
// redirect load: nothing merges). `WITHOUT=link-index,link-rollups` leaves out the events' index by
// link or the link_id catch-up, to see what each costs (decision 0027). See docs/benchmarks-history.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { applyEventBatch } from '../src/storage/sql/click-writes.js';
import { SqliteEventWrites } from '../src/storage/sqlite/event-writes.js';
import { LINK_ROLLUP_EVENTS, rollUpLinkEvents } from '../src/storage/sqlite/link-rollups.js';
import { withStatementCache } from '../src/storage/sqlite/statement-cache.js';
import type { ClickEvent } from '../src/storage/stores/analytics.js';
import type { Tables } from '../src/storage/tables.js';
import { preloadLinks } from './preload.js';
import { DOMAIN } from './scenarios.js';

const links = Number(process.argv[2] ?? 100_000);
const batches = Number(process.argv[3] ?? 50);
const EVENTS = Number(process.env.EVENTS ?? 4096);
const WITHOUT = new Set((process.env.WITHOUT ?? '').split(',').filter(Boolean));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-event-cost-'));
const file = path.join(dir, 'links.db');
await preloadLinks(file, DOMAIN, links);
const sqlite = new SQLite(file);
if (WITHOUT.has('link-index')) sqlite.exec('drop index click_events_link_time');
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('cache_size = -32768');
const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
const pick = <T>(values: readonly T[]) => values[Math.floor(Math.random() * values.length)]!;
let time = Date.now();
let seq = 0;
const batch = () => {
  const events: ClickEvent[] = [];
  for (let i = 0; i < EVENTS; i++) {
    time += 1;
    events.push({
      time,
      linkId: 1 + Math.floor(Math.random() * links),
      clicks: 1,
      bot: null,
      browser: pick(['Chrome', 'Firefox', 'Safari', 'Edge']),
      browserVersion: pick(['120', '121', '131']),
      os: pick(['Windows', 'Mac OS', 'Linux', 'iOS', 'Android']),
      deviceType: pick(['desktop', 'mobile', 'tablet']),
      deviceVendor: pick([null, 'Apple', 'Samsung']),
      language: pick(['en-us', 'de', 'fr', null]),
      referrerHost: pick([null, 'news.example', 't.co']),
      country: pick(['US', 'DE', 'FR', 'GB', 'IN']),
      city: null,
      rule: null,
    });
  }
  return { writer: 'bench', seq: ++seq, events };
};
const prepared = new SqliteEventWrites(sqlite);
let unrolled = 0;
// As the thread does (background-thread.ts): the link_id rows rolled up every LINK_ROLLUP_EVENTS events.
const write = async () => {
  if (process.env.KYSELY) await db.transaction().execute((trx) => applyEventBatch(trx, batch(), { links: false }));
  else prepared.add(batch());
  if (WITHOUT.has('link-rollups')) return;
  for (unrolled += EVENTS; unrolled >= LINK_ROLLUP_EVENTS; unrolled -= LINK_ROLLUP_EVENTS) await rollUpLinks();
};
const rollUps: number[] = [];
const rollUpLinks = async () => {
  const started = performance.now();
  const more = await db.transaction().execute((trx) => rollUpLinkEvents(trx, LINK_ROLLUP_EVENTS));
  rollUps.push(performance.now() - started);
  return more;
};
for (let i = 0; i < 5; i++) await write(); // warm-up: JIT, page cache
const before = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < batches; i++) await write();
if (!WITHOUT.has('link-rollups')) while (await rollUpLinks());
const cpu = process.cpuUsage(before);
const wall = Number(process.hrtime.bigint() - started) / 1000;
const made = batches * EVENTS;
console.log(
  `${links} links, ${made} events written: CPU ${((cpu.user + cpu.system) / made).toFixed(1)} µs/event ` +
    `(user ${(cpu.user / made).toFixed(1)}, system ${(cpu.system / made).toFixed(1)}), wall ${(wall / made).toFixed(1)} µs/event`,
);
const sorted = rollUps.slice(5).sort((a, b) => a - b);
if (sorted.length > 0)
  console.log(
    `link roll-ups of ${LINK_ROLLUP_EVENTS} events: median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, longest ${sorted.at(-1)!.toFixed(1)} ms`,
  );
await db.destroy();
fs.rmSync(dir, { recursive: true, force: true });
