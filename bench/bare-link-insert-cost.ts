// `node --import tsx bench/bare-link-insert-cost.ts [INDEXES] [LINKS] [COMMITS]`: CPU µs per link of the
// cheapest durable write a new link could have on SQLite. The real schema (the migrations, LINKS links
// preloaded as bench/preload.ts makes them); one prepared insert a link, its values made beforehand; PER
// links a transaction (env PER, default 200: one bulk request); synchronous=FULL and checkpoints as the
// server runs them. No request, no savepoint, no code draw.
// INDEXES says which of the indexes a link insert maintains are kept:
//   all         the schema as it is: links_code, links_domain_key, links_dedupe, links_account
//   dedupe      links_code and links_domain_key dropped: what codes derived from the row id would leave
//   none        links_dedupe dropped too: no index keyed by a random value, only links_account's append
// The floor under docs/benchmarks-history.md's "Why bulk create at 0.5 of the baseline cannot be met here".
// Knobs for what might cut the dedupe index's cost (decision 0026), each off by default:
//   HASH_BYTES=N  url_hash cut to its first N bytes, the preloaded rows' too (a shorter key)
//   CACHE_KIB=N   the connection's page cache (cache_size = -N); the server's writer keeps SQLite's default
//   MMAP_BYTES=N  mmap_size
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { WAL_RESTART_FRAMES, WAL_SIZE_LIMIT_BYTES } from '../src/storage/sqlite/wal-restart.js';
import { linkKey } from './link-keys.js';
import { preloadLinks } from './preload.js';

const indexes = process.argv[2] ?? 'all';
const links = Number(process.argv[3] ?? 1_000_000);
const commits = Number(process.argv[4] ?? 100);
const PER = Number(process.env.PER ?? 200);
const HASH_BYTES = Number(process.env.HASH_BYTES ?? 32);
const DROPPED: Record<string, string[]> = {
  all: [],
  dedupe: ['links_code', 'links_domain_key'],
  none: ['links_code', 'links_domain_key', 'links_dedupe'],
};
const dropped = DROPPED[indexes];
if (!dropped) throw new Error(`INDEXES is one of ${Object.keys(DROPPED).join(', ')}`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bare-link-insert-'));
const file = path.join(dir, 'links.db');
await preloadLinks(file, 'brief.bench', links);
const sqlite = new SQLite(file);
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = FULL');
// Checkpoints as the server's background thread makes them (background-thread.ts), here on the same thread:
// PASSIVE every 250 ms, RESTART once the WAL holds WAL_RESTART_FRAMES.
sqlite.pragma('wal_autocheckpoint = 0');
sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
let lastCheckpoint = Date.now();
const checkpoint = () => {
  if (Date.now() - lastCheckpoint < 250) return;
  lastCheckpoint = Date.now();
  const [result] = sqlite.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
  if (result && result.log >= WAL_RESTART_FRAMES) sqlite.pragma('wal_checkpoint(RESTART)');
};
if (process.env.CACHE_KIB) sqlite.pragma(`cache_size = -${Number(process.env.CACHE_KIB)}`);
if (process.env.MMAP_BYTES) sqlite.pragma(`mmap_size = ${Number(process.env.MMAP_BYTES)}`);
if (HASH_BYTES < 32) sqlite.exec(`update links set url_hash = substr(url_hash, 1, ${HASH_BYTES}); reindex links_dedupe`);
for (const index of dropped) sqlite.exec(`drop index ${index}`);
// Without this, the dropped indexes' pages sit on the freelist and new rows are laid out in them.
if (dropped.length > 0 || HASH_BYTES < 32) sqlite.exec('vacuum');
const anonymous = (sqlite.prepare(`select id from accounts where name = 'anonymous'`).get() as { id: number }).id;
const insert = sqlite.prepare(
  'insert into links (code, domain, key, slug, url, url_hash, title, account_id, status, created_at, reusable) ' +
    "values (?, 'brief.bench', ?, null, ?, ?, null, ?, 'public', ?, 1)",
);
// Every row's values are made before the clock starts: what is measured is SQLite's work alone.
const rows = Array.from({ length: (commits + 10) * PER }, (_, n) => {
  const code = linkKey(links + n); // random-looking, past the preloaded ones
  const url = `https://bulk.example.org/p/${n}`;
  return { code, url, hash: createHash('sha256').update(url).digest().subarray(0, HASH_BYTES) };
});
let n = 0;
const commit = sqlite.transaction(() => {
  for (let i = 0; i < PER; i++) {
    const { code, url, hash } = rows[n++]!;
    insert.run(code, code, url, hash, anonymous, Date.now());
  }
});
const commitAndCheckpoint = () => {
  commit();
  checkpoint();
};
for (let i = 0; i < 10; i++) commitAndCheckpoint(); // warm-up
const before = process.cpuUsage();
for (let i = 0; i < commits; i++) commitAndCheckpoint();
const cpu = process.cpuUsage(before);
const made = commits * PER;
console.log(
  `indexes ${indexes}, ${links} links, ${PER} a commit, hash ${HASH_BYTES} bytes, cache ${process.env.CACHE_KIB ?? 'default'} KiB, mmap ${process.env.MMAP_BYTES ?? 0}: CPU ${((cpu.user + cpu.system) / made).toFixed(1)} µs a link ` +
    `(user ${(cpu.user / made).toFixed(1)}, system ${(cpu.system / made).toFixed(1)})`,
);
sqlite.close();
fs.rmSync(dir, { recursive: true, force: true });
