// `npm run bench:tags [-- --links N] [--requests N] [--postgres URL] [--keep]`: a workspace of N links (1,000,000 by
// default) with tags as teams use them (10% `a`, 1% `b` (a tenth of the `a` links), half of the links one of 40 other
// tags, a fifth one of 200 more: 0 to 3 tags a link), then GET /v3/shorten/list?perPage=100 filtered by tag on the built
// server, any, all and exclude, each asked `--requests` times (50) after 5 warm-ups, one at a time over one kept-alive
// connection: the median and p99 of the wall time of each answer (docs/benchmarks.md, "Tags"). On SQLite, and on
// PostgreSQL with `--postgres URL` (a database made beside the one the URL names, dropped after).
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { type RawBuilder, sql } from 'kysely';
import { startBrief } from '../harness/servers.js';
import { type Database, openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const LINKS = Number(option('--links') ?? 1_000_000);
const REQUESTS = Number(option('--requests') ?? 50);
const POSTGRES = option('--postgres');
/** Keeps the databases (to explain a query's plan on them): their places are printed. */
const KEEP = args.includes('--keep');
const DOMAIN = 'bench.test';
const PAGE = 100;

/** The filters timed, each with the links it keeps (by id: ids run 1..LINKS in one fresh workspace). */
const FILTERS: Array<{ name: string; query: string; keeps: (id: number) => boolean }> = [
  { name: 'no filter', query: '', keeps: () => true },
  { name: 'tags=a (10%)', query: 'tags=a', keeps: (id) => id % 10 === 0 },
  { name: 'tags=b (1%)', query: 'tags=b', keeps: (id) => id % 100 === 10 },
  { name: 'tags=b,t2 any', query: 'tags=b,t2', keeps: (id) => id % 100 === 10 || (id % 2 === 0 && (id * 7) % 40 === 2) },
  { name: 'tags=a,t0 all', query: 'tags=a,t0&tagMode=all', keeps: (id) => id % 10 === 0 && (id * 7) % 40 === 0 },
  { name: 'excludeTags=a', query: 'excludeTags=a', keeps: (id) => id % 10 !== 0 },
  { name: 'tags=a&excludeTags=b', query: 'tags=a&excludeTags=b', keeps: (id) => id % 10 === 0 && id % 100 !== 10 },
];

interface Timed {
  dialect: string;
  filter: string;
  total: number;
  medianMs: number;
  p99Ms: number;
}

/** The links, their tags and a token of the workspace, written in a few statements (the SQL generates the rows). */
async function load(database: Database, dialect: 'sqlite' | 'postgres'): Promise<string> {
  const db = database.db;
  const now = Date.now();
  const account = await db.insertInto('accounts').values({ name: 'bench-tags', created_at: now }).returning('id').executeTakeFirstOrThrow();
  const accountId = Number(account.id);
  const token = `brf_${randomBytes(32).toString('base64url')}`;
  await db
    .insertInto('tokens')
    .values({ account_id: accountId, token_hash: createHash('sha256').update(token).digest('hex'), label: 'bench', created_at: now })
    .execute();
  const started = Date.now();
  // Stored codes (coded false), as links from before permutation codes: the list reads them alike.
  if (dialect === 'sqlite') {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${LINKS})
      insert into links (id, code, domain, key, url, url_hash, account_id, status, created_at, coded)
      select i, 'tg' || i, ${DOMAIN}, 'tg' || i, 'https://example.com/tagged/' || i, randomblob(32), ${accountId}, 'public', ${now} + i, 0 from n`.execute(
      db,
    );
  } else {
    await sql`insert into links (id, code, domain, key, url, url_hash, account_id, status, created_at, coded)
      select i, 'tg' || i, ${DOMAIN}, 'tg' || i, 'https://example.com/tagged/' || i, decode(md5(i::text) || md5(i::text), 'hex'), ${accountId}, 'public', cast(${now} as bigint) + i, false
      from generate_series(1, ${LINKS}) as i`.execute(db);
    await sql`select setval(pg_get_serial_sequence('links', 'id'), ${LINKS})`.execute(db);
  }
  const names = ['a', 'b', ...Array.from({ length: 40 }, (_, i) => `t${i}`), ...Array.from({ length: 200 }, (_, i) => `u${i}`)];
  await db
    .insertInto('tags')
    .values(names.map((name) => ({ account_id: accountId, name, name_key: name, color: null, created_at: now })))
    .execute();
  const tagged = (name: RawBuilder<unknown>, where: RawBuilder<unknown>) =>
    sql`insert into link_tags (tag_id, link_id) select tags.id, links.id from links join tags on tags.account_id = links.account_id and tags.name_key = ${name}
      where links.account_id = ${accountId} and ${where}`.execute(db);
  await tagged(sql`'a'`, sql`links.id % 10 = 0`);
  await tagged(sql`'b'`, sql`links.id % 100 = 10`);
  await tagged(sql`'t' || cast((links.id * 7) % 40 as text)`, sql`links.id % 2 = 0`);
  await tagged(sql`'u' || cast((links.id * 13) % 200 as text)`, sql`links.id % 5 = 0`);
  // As a table that has lived a while is: PostgreSQL's visibility map set by (auto)vacuum, so a tag's count reads
  // its index alone; both engines' statistics taken.
  await sql`${sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze')}`.execute(db);
  console.error(`[bench:tags] ${dialect}: ${LINKS} links and their tags written in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return token;
}

/** One GET over the kept-alive agent: its status, its body and how long it took (ms). */
function get(port: number, agent: http.Agent, token: string, query: string): Promise<{ status: number; body: string; ms: number }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, agent, path: `/v3/shorten/list?perPage=${PAGE}&${query}`, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    request.on('error', reject);
  });
}

async function timeFilters(dialect: 'sqlite' | 'postgres', url: string, dbFile: string): Promise<Timed[]> {
  const database = openDatabase(dialect === 'sqlite' ? { kind: 'sqlite', path: dbFile } : { kind: 'postgres', url });
  let token: string;
  try {
    await migrateToLatest(database);
    token = await load(database, dialect);
  } finally {
    await database.close();
  }
  const server = await startBrief(`brief tags ${dialect}`, { dbFile, domain: DOMAIN, env: dialect === 'postgres' ? { DATABASE_URL: url } : {} });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const results: Timed[] = [];
  try {
    for (const filter of FILTERS) {
      const expected = expectedPage(filter.keeps);
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < 5 + REQUESTS; i++) {
        const answer = await get(server.port, agent, token, filter.query);
        if (answer.status !== 200) throw new Error(`${filter.query}: ${answer.status} ${answer.body.slice(0, 200)}`);
        const body = JSON.parse(answer.body) as { links: Array<{ slug: string }>; metadata: { total: number } };
        const slugs = body.links.map((link) => link.slug);
        if (slugs.join() !== expected.slugs.join() || body.metadata.total !== expected.total) {
          throw new Error(
            `${filter.query}: the page or its total is not the links the filter keeps (total ${body.metadata.total}, expected ${expected.total})`,
          );
        }
        total = body.metadata.total;
        if (i >= 5) times.push(answer.ms);
      }
      times.sort((a, b) => a - b);
      const at = (share: number) => Number(times[Math.min(times.length - 1, Math.ceil(share * times.length) - 1)]!.toFixed(1));
      results.push({ dialect, filter: filter.name, total, medianMs: at(0.5), p99Ms: at(0.99) });
      console.error(`[bench:tags] ${dialect} ${filter.name}: median ${at(0.5)} ms, p99 ${at(0.99)} ms (total ${total})`);
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
  return results;
}

/** The first page (newest first) of what a filter keeps, and how many it keeps. */
function expectedPage(keeps: (id: number) => boolean): { slugs: string[]; total: number } {
  const slugs: string[] = [];
  let total = 0;
  for (let id = LINKS; id >= 1; id--) {
    if (!keeps(id)) continue;
    total++;
    if (slugs.length < PAGE) slugs.push(`tg${id}`);
  }
  return { slugs, total };
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bench-tags-'));
  const results: Timed[] = [];
  try {
    results.push(...(await timeFilters('sqlite', '', path.join(dir, 'brief.db'))));
    if (POSTGRES) {
      const name = `brief_bench_tags_${process.pid}`;
      const admin = openDatabase({ kind: 'postgres', url: POSTGRES });
      await sql`create database ${sql.id(name)}`.execute(admin.db);
      const url = new URL(POSTGRES);
      url.pathname = `/${name}`;
      try {
        results.push(...(await timeFilters('postgres', url.href, '')));
      } finally {
        if (KEEP) console.error(`[bench:tags] kept ${url.href}`);
        else await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin.db);
        await admin.close();
      }
    }
  } finally {
    if (KEEP) console.error(`[bench:tags] kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`| dialect | filter | links kept | median | p99 |\n|---|---|---:|---:|---:|`);
  for (const r of results) console.log(`| ${r.dialect} | \`${r.filter}\` | ${r.total.toLocaleString('en')} | ${r.medianMs} ms | ${r.p99Ms} ms |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
