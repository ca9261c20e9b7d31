// `node --import tsx bench/bare-append-cost.ts [BATCHES]`: CPU µs per row of the cheapest durable write a
// click event could have on SQLite: one row of click_events' 14 columns appended to a table with no index,
// 1,024 rows a transaction, the statement prepared once; no rollup, no checkpoint. The floor under
// docs/benchmarks-history.md's "Why cold within 10% of analytics off cannot be met here".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';

const batches = Number(process.argv[2] ?? 300);
const ROWS = 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bare-append-'));
const sqlite = new SQLite(path.join(dir, 'events.db'));
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
const columns =
  'time, link_id, account_id, bot, browser, browser_version, os, device_type, device_vendor, language, referrer_host, country, city, clicks';
sqlite.exec(`create table events (id integer primary key, ${columns})`);
const insert = sqlite.prepare(
  `insert into events (${columns}) values (${columns
    .split(', ')
    .map(() => '?')
    .join(', ')})`,
);
const append = sqlite.transaction((time: number) => {
  for (let i = 0; i < ROWS; i++) {
    insert.run(time + i, 1 + Math.floor(Math.random() * 1e6), 1, null, 'Chrome', '131', 'Windows', 'desktop', null, 'en-us', 't.co', 'US', null, 1);
  }
});
for (let i = 0; i < 20; i++) append(Date.now()); // warm-up
const before = process.cpuUsage();
for (let i = 0; i < batches; i++) append(Date.now());
const cpu = process.cpuUsage(before);
console.log(`${batches * ROWS} rows appended: CPU ${((cpu.user + cpu.system) / (batches * ROWS)).toFixed(2)} µs a row`);
sqlite.close();
fs.rmSync(dir, { recursive: true, force: true });
