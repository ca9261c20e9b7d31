// `node --import tsx bench/bulk-request-cost.ts [REQUESTS] [LINKS]`: the cost per link of
// POST /v3/shorten/bulk (200 new URLs a request) in-process through app.inject, one request
// after another, on a SQLite file preloaded with LINKS links: CPU µs, or instructions when run
// under callgrind (docs/benchmarks-history.md): with MEASURE_PAUSE_MS set, the script prints
// "measure <pid>" after its warm-up and waits that long, for `callgrind_control -z <pid>` to zero
// the counters, and exits as soon as the requests are answered.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { preloadLinks } from './preload.js';
import { BULK_ITEMS, DOMAIN } from './scenarios.js';

const requests = Number(process.argv[2] ?? 50);
const links = Number(process.argv[3] ?? 20_000);
const pauseMs = Number(process.env.MEASURE_PAUSE_MS ?? 0);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bulk-cost-'));
const file = path.join(dir, 'links.db');
await preloadLinks(file, DOMAIN, links);
const database = openDatabase({ kind: 'sqlite', path: file });
await migrateToLatest(database);
const app = buildApp(loadConfig({ BASE_URL: `https://${DOMAIN}`, LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${file}`, RATE_LIMIT_ANON: '0' }), {
  database,
});
await app.ready();

const run = Math.random().toString(36).slice(2, 8);
let n = 0;
const send = async () => {
  const payload = JSON.stringify(Array.from({ length: BULK_ITEMS }, () => ({ url: `https://bulk.example.org/p/${run}/${n++}` })));
  const res = await app.inject({ method: 'POST', url: '/v3/shorten/bulk', headers: { 'content-type': 'application/json' }, payload });
  if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body.slice(0, 200)}`);
};
for (let i = 0; i < 5; i++) await send(); // warm-up
if (pauseMs > 0) {
  console.log(`measure ${process.pid}`);
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
const before = process.cpuUsage();
for (let i = 0; i < requests; i++) await send();
const cpu = process.cpuUsage(before);
const made = requests * BULK_ITEMS;
console.log(
  `${made} links in ${requests} requests: CPU ${((cpu.user + cpu.system) / made).toFixed(1)} µs/link (user ${(cpu.user / made).toFixed(1)}, system ${(cpu.system / made).toFixed(1)})`,
);
if (pauseMs > 0) process.exit(0);
await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
