// `npm run bench:import [-- --links N] [--keep]`: `brief import` of a CSV file of N links (1,000,000 by
// default) into an empty SQLite database, run as the real command, three times: alone on the file (links
// a second, target 50,000, and the database's size after); with a write made through the same file every
// 100 ms, as a running server's, to show how long such writes wait; and with that writer opening the file
// a second into the import, as a server started meanwhile (docs/benchmarks.md, "Import").
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const links = Number(option('--links') ?? 1_000_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bench-import-'));
const csv = path.join(dir, 'links.csv');
const db = path.join(dir, 'brief.db');

/** The file a move from another shortener gives: a key, a URL, a title and a creation time a row. */
function writeCsv(): void {
  const out = fs.openSync(csv, 'w');
  let chunk = 'url,slug,title,created\n';
  const start = Date.UTC(2020, 0, 1);
  for (let i = 0; i < links; i++) {
    chunk += `https://example.com/articles/${i}?utm_source=bench&ref=${(i * 7919) % 100_000},k${i.toString(36)},Article number ${i},${new Date(start + i * 60_000).toISOString()}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk);
      chunk = '';
    }
  }
  fs.writeSync(out, chunk);
  fs.closeSync(out);
}

const sizeOf = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

interface ImportRun {
  count: number;
  seconds: number;
  bytes: number;
  out: string;
  /** Another writer's waits (ms, sorted), when one wrote during the import. */
  waits: number[];
}

/**
 * One `brief import` of the CSV into a new database. `withWriter`: another connection writes through
 * the same file every 100 ms meanwhile, as a running server's shortens would, timed; the import then
 * leaves the lock free between its batches. Without it, the import has the file to itself and writes
 * its batches back to back on the background thread.
 */
async function importOnce(db: string, withWriter: 'none' | 'from the start' | 'after a second'): Promise<ImportRun> {
  const database = openDatabase({ kind: 'sqlite', path: db });
  await migrateToLatest(database);
  await database.close();

  let probe: SQLite.Database | undefined;
  const waits: number[] = [];
  let timer: NodeJS.Timeout | undefined;
  const startWriter = () => {
    probe = new SQLite(db);
    probe.pragma('busy_timeout = 10000');
    probe.exec('create table if not exists bench_probe (at integer)');
    const insert = probe.prepare('insert into bench_probe (at) values (?)');
    timer = setInterval(() => {
      const t0 = performance.now();
      insert.run(Date.now());
      waits.push(performance.now() - t0);
    }, 100);
  };
  // Opened before the import: it sees a server on the file. Opened a second in: it has the file to itself.
  if (withWriter === 'from the start') startWriter();
  const late = withWriter === 'after a second' ? setTimeout(startWriter, 1000) : undefined;

  const started = performance.now();
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/main.js'), 'import', csv, '--format', 'csv'], {
    env: { ...process.env, DATABASE_URL: `sqlite:${db}`, BASE_URL: 'http://short.test' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(late);
  clearInterval(timer);
  if (probe) {
    probe.exec('drop table bench_probe');
    probe.close();
  }
  if (code !== 0) throw new Error(`brief import exited ${code}: ${out}`);

  const check = new SQLite(db);
  const count = check.prepare('select count(*) from links').pluck().get() as number;
  check.pragma('wal_checkpoint(TRUNCATE)');
  check.close();
  waits.sort((a, b) => a - b);
  return { count, seconds, bytes: sizeOf(db) + sizeOf(`${db}-wal`), out: out.trim(), waits };
}

async function main(): Promise<void> {
  writeCsv();
  const alone = await importOnce(db, 'none');
  const shared = await importOnce(path.join(dir, 'brief-shared.db'), 'from the start');
  const joined = await importOnce(path.join(dir, 'brief-joined.db'), 'after a second');
  const pct = (waits: number[], p: number) =>
    waits.length ? waits[Math.min(waits.length - 1, Math.floor((p / 100) * waits.length))]!.toFixed(1) : '-';
  const rate = (run: ImportRun) => `${Math.round(run.count / run.seconds).toLocaleString('en')} links/s`;
  console.log(alone.out);
  console.log(shared.out);
  console.log(joined.out);
  console.log(
    [
      `import: ${alone.count.toLocaleString('en')} links from a ${(sizeOf(csv) / 1e6).toFixed(0)} MB CSV in ${alone.seconds.toFixed(1)} s`,
      `= ${rate(alone)} (target 50,000), process start and migration included, no other process on the file`,
      `database after: ${(alone.bytes / 1e6).toFixed(0)} MB (${Math.round(alone.bytes / alone.count)} bytes a link)`,
      `with another writer on the file (as a running server): ${rate(shared)} in ${shared.seconds.toFixed(1)} s; ` +
        `its waits (${shared.waits.length} writes): p50 ${pct(shared.waits, 50)} ms, p99 ${pct(shared.waits, 99)} ms, max ${pct(shared.waits, 100)} ms`,
      `with another writer opening the file a second into the import: ${rate(joined)}; its waits (${joined.waits.length} writes): ` +
        `p50 ${pct(joined.waits, 50)} ms, p99 ${pct(joined.waits, 99)} ms, max ${pct(joined.waits, 100)} ms`,
    ].join('\n'),
  );
  if (!args.includes('--keep')) fs.rmSync(dir, { recursive: true, force: true });
  else console.log(`kept ${dir}`);
}

await main();
