// `node --import tsx bench/link-write-cost.ts [LINKS] [REQUESTS]`: CPU µs per link of the
// store's bulk insert alone (no HTTP), on a SQLite file preloaded like the benchmark's, in
// requests of 200 links each written and committed one after another. Steadier than a load
// run on a shared machine; see docs/benchmarks-history.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newLink } from '../harness/links.js';
import { openDatabase } from '../src/storage/database.js';
import type { NewLink } from '../src/storage/stores/links.js';
import { preloadLinks } from './preload.js';
import { BULK_ITEMS, DOMAIN } from './scenarios.js';

const links = Number(process.argv[2] ?? 20_000);
const requests = Number(process.argv[3] ?? 100);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-write-cost-'));
const file = path.join(dir, 'links.db');
await preloadLinks(file, DOMAIN, links);
const database = openDatabase({ kind: 'sqlite', path: file });
const run = Math.random().toString(36).slice(2, 8);
let n = 0;
const batch = (): NewLink[] =>
  Array.from({ length: BULK_ITEMS }, () => newLink(`https://bulk.example.org/p/${run}/${n++}`, { domain: DOMAIN, reusable: true }));
const write = () => database.links.createMany(batch());
for (let i = 0; i < 10; i++) await write(); // warm-up: JIT, page cache
const before = process.cpuUsage();
const started = process.hrtime.bigint();
for (let i = 0; i < requests; i++) await write();
const cpu = process.cpuUsage(before);
const wall = Number(process.hrtime.bigint() - started) / 1000;
const made = requests * BULK_ITEMS;
console.log(
  `${links} links preloaded, ${made} written: CPU ${((cpu.user + cpu.system) / made).toFixed(1)} µs/link ` +
    `(user ${(cpu.user / made).toFixed(1)}, system ${(cpu.system / made).toFixed(1)}), wall ${(wall / made).toFixed(1)} µs/link`,
);
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
