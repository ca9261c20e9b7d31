// `npm run crash [-- --cycles N] [--out FILE]`: the built server on SQLite killed with
// SIGKILL under write load, again and again on the same database. After each kill the
// database must pass `PRAGMA integrity_check` and hold every link whose creation was
// acknowledged (a 200), unchanged; at the end a restarted server must redirect every one.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { FUZZ_HOST, prepareDatabase } from '../harness/hostile/fuzz-server.js';
import { type RunningServer, startBrief } from '../harness/servers.js';

const { values } = parseArgs({
  options: {
    cycles: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '16' },
    out: { type: 'string' },
  },
});

interface Acknowledged {
  key: string;
  url: string;
  /** Made with a slug (v2 shorten), by bulk, or plain. */
  how: 'plain' | 'slug' | 'bulk';
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-crash-'));
const dbFile = path.join(dir, 'brief.db');
// Rate limits off: the write load comes from one token, as fast as the server acknowledges.
const env = {
  DATABASE_URL: `sqlite:${dbFile}`,
  BASE_URL: `http://${FUZZ_HOST}`,
  RATE_LIMIT_ANON: '0',
  RATE_LIMIT_TOKEN: '0',
  RATE_LIMIT_READ: '0',
  RATE_LIMIT_PASSWORD: '0',
  RATE_LIMIT_PASSWORD_ADDRESS: '0',
};
const [token] = (await prepareDatabase(env, ['crash'])) as [string];
const acknowledged: Acknowledged[] = [];
let serial = 0;

function send(
  port: number,
  method: string,
  target: string,
  body?: unknown,
  agent?: http.Agent,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = { host: FUZZ_HOST, authorization: `Bearer ${token}` };
  if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: target, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** One write: a plain shorten, a shorten with a slug, or a bulk of five. Acknowledged links are recorded. */
async function write(port: number, agent: http.Agent): Promise<void> {
  const n = serial++;
  const url = (i = 0) => `https://example.com/crash/${n}/${i}`;
  const kind = n % 3;
  if (kind === 2) {
    const items = Array.from({ length: 5 }, (_, i) => ({ url: url(i) }));
    const answer = await send(port, 'POST', '/v3/shorten/bulk', items, agent);
    if (answer.status !== 200) throw new Error(`bulk: ${answer.status} ${answer.body}`);
    for (const [i, item] of (JSON.parse(answer.body) as Array<{ slug?: string; error?: string }>).entries()) {
      if (!item.slug) throw new Error(`bulk item: ${JSON.stringify(item)}`);
      acknowledged.push({ key: item.slug, url: url(i), how: 'bulk' });
    }
    return;
  }
  const slug = kind === 1 ? `crash-${n}` : undefined;
  const answer = await send(port, 'GET', `/v2/shorten?url=${encodeURIComponent(url())}${slug ? `&slug=${slug}` : ''}`, undefined, agent);
  if (answer.status !== 200) throw new Error(`shorten: ${answer.status} ${answer.body}`);
  const made = JSON.parse(answer.body) as { code: string; slug?: string };
  acknowledged.push({ key: made.slug ?? made.code, url: url(), how: slug ? 'slug' : 'plain' });
}

/** What the database file says after a crash: integrity, and which acknowledged links are missing or changed. */
function inspect(): { integrity: string; links: number; missing: Acknowledged[] } {
  const db = new SQLite(dbFile);
  try {
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
    const find = db.prepare('select url from links where domain = ? and key = ? and deleted_at is null');
    const missing = acknowledged.filter((a) => (find.get(FUZZ_HOST, a.key) as { url: string } | undefined)?.url !== a.url);
    const { n } = db.prepare('select count(*) as n from links').get() as { n: number };
    return { integrity, links: n, missing };
  } finally {
    db.close();
  }
}

const cycles: Array<{
  cycle: number;
  loadMs: number;
  acknowledged: number;
  failedInFlight: number;
  integrity: string;
  links: number;
  missing: number;
}> = [];
const started = Date.now();
let failures: string[] = [];
for (let cycle = 1; cycle <= Number(values.cycles); cycle++) {
  const server: RunningServer = await startBrief(`crash-${cycle}`, { dbFile, domain: FUZZ_HOST, env });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });
  const before = acknowledged.length;
  let killed = false;
  let failedInFlight = 0;
  let unexpected = 0;
  const worker = async () => {
    while (!killed) {
      try {
        await write(server.port, agent);
      } catch (error) {
        // After the kill, requests in flight fail: they were never acknowledged. Before it, a failure is a bug.
        if (killed) failedInFlight++;
        else {
          unexpected++;
          failures.push(`cycle ${cycle}: ${(error as Error).message}`);
        }
      }
    }
  };
  const loadMs = 1000 + Math.floor(Math.random() * 2000);
  const load = Promise.all(Array.from({ length: Number(values.concurrency) }, worker));
  await new Promise((r) => setTimeout(r, loadMs));
  killed = true;
  server.child.kill('SIGKILL');
  await Promise.race([load, new Promise((r) => setTimeout(r, 35_000))]);
  agent.destroy();
  await new Promise<void>((r) => (server.child.exitCode !== null || server.child.signalCode !== null ? r() : server.child.once('exit', () => r())));
  const state = inspect();
  cycles.push({
    cycle,
    loadMs,
    acknowledged: acknowledged.length - before,
    failedInFlight,
    integrity: state.integrity,
    links: state.links,
    missing: state.missing.length,
  });
  console.log(JSON.stringify(cycles.at(-1)));
  if (state.integrity !== 'ok') failures.push(`cycle ${cycle}: integrity_check says ${state.integrity}`);
  if (state.missing.length > 0)
    failures.push(`cycle ${cycle}: ${state.missing.length} acknowledged links lost, e.g. ${JSON.stringify(state.missing[0])}`);
  if (unexpected > 0 && acknowledged.length === before) break;
}

// The last word over HTTP: a server started on the crashed database redirects every acknowledged link.
const last = await startBrief('crash-final', { dbFile, domain: FUZZ_HOST, env });
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
let redirected = 0;
let next = 0;
const check = async () => {
  while (next < acknowledged.length) {
    const link = acknowledged[next++]!;
    const answer = await send(last.port, 'GET', `/${link.key}`, undefined, agent);
    if (answer.status === 301 && answer.headers.location === link.url) redirected++;
    else if (failures.length < 50) failures.push(`after the crashes ${link.key} answers ${answer.status} ${answer.headers.location ?? ''}`);
  }
};
await Promise.all(Array.from({ length: 8 }, check));
agent.destroy();
await last.stop();
fs.rmSync(dir, { recursive: true, force: true });

failures = [...new Set(failures)];
const report = {
  cycles: cycles.length,
  seconds: (Date.now() - started) / 1000,
  acknowledged: acknowledged.length,
  byKind: Object.fromEntries(['plain', 'slug', 'bulk'].map((how) => [how, acknowledged.filter((a) => a.how === how).length])),
  redirectedAfterwards: redirected,
  lost: cycles.reduce((n, c) => Math.max(n, c.missing), 0),
  integrity: [...new Set(cycles.map((c) => c.integrity))],
  perCycle: cycles,
  failures,
};
console.log(JSON.stringify({ ...report, perCycle: undefined }, null, 2));
if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
console.log(failures.length === 0 ? 'crash: passed' : `crash: FAILED\n- ${failures.slice(0, 10).join('\n- ')}`);
process.exitCode = failures.length === 0 ? 0 : 1;
