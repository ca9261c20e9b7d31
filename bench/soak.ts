// `npm run soak -- --minutes N [--rate R] [--concurrency C] [--out FILE]`: a steady mixed
// load against the built server (a process on a fresh SQLite directory, analytics on):
// redirects, shortens, bulk creates, deletes and analytics reads, the number of live links
// held steady by deleting the oldest as new ones are made. Passes (exit 0) only with no
// error and resident memory growing less than 10% after warm-up (the first fifth of the run):
// the median of the samples (every 5 s) in its last tenth against that of the 20–50% of the run after warm-up.
// The report also splits that RSS (bench/soak-memory-probe.mjs): each thread's V8 heap, what survived
// its last full GC, and native memory, so a failure says whether JS, garbage or SQLite grew.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { FUZZ_HOST, prepareDatabase } from '../harness/hostile/fuzz-server.js';
import { startBrief } from '../harness/servers.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    rate: { type: 'string', default: '400' },
    concurrency: { type: 'string', default: '8' },
    'live-links': { type: 'string', default: '2000' },
    out: { type: 'string' },
    // For the server process, e.g. --node-arg=--heapsnapshot-signal=SIGUSR2 to look at what grows.
    'node-arg': { type: 'string', multiple: true, default: [] },
    analytics: { type: 'string', default: 'full' },
  },
});
const durationMs = Number(values.minutes) * 60_000;
const rate = Number(values.rate);
const liveTarget = Number(values['live-links']);
const MB = 2 ** 20;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-soak-'));
const dbFile = path.join(dir, 'brief.db');
// Rate limits off: this measures the server under load, not its refusals (one token makes every link).
const env = {
  DATABASE_URL: `sqlite:${dbFile}`,
  BASE_URL: `http://${FUZZ_HOST}`,
  ANALYTICS: values.analytics,
  RATE_LIMIT_ANON: '0',
  RATE_LIMIT_TOKEN: '0',
  RATE_LIMIT_READ: '0',
  RATE_LIMIT_PASSWORD: '0',
  RATE_LIMIT_PASSWORD_ADDRESS: '0',
};
const [token] = (await prepareDatabase(env, ['soak'])) as [string];
// What the RSS is made of, per thread (bench/soak-memory-probe.mjs): read back at the end.
const memoryFile = path.join(dir, 'memory.jsonl');
const probe = `--import=${new URL('./soak-memory-probe.mjs', import.meta.url).href}`;
const server = await startBrief('soak', {
  dbFile,
  domain: FUZZ_HOST,
  env: { ...env, BRIEF_SOAK_MEMORY_FILE: memoryFile },
  nodeArgs: [probe, ...values['node-arg']],
});
console.log(`soak: server pid ${server.child.pid}, port ${server.port}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(values.concurrency) });

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(method: string, path: string, body?: unknown, auth = true): Promise<Answer> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {
    host: FUZZ_HOST,
    'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0',
    referer: 'https://news.example/',
  };
  if (auth) headers.authorization = `Bearer ${token}`;
  if (payload !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

interface Live {
  key: string;
  url: string;
}
/** Live links, oldest first; a link leaves it before its delete is sent. */
const live: Live[] = [];
const liveKeys = new Set<string>();
let made = 0;
const counts: Record<string, number> = {};
const errors: Record<string, number> = {};
const firstErrors: string[] = [];

function error(kind: string, detail: string): void {
  errors[kind] = (errors[kind] ?? 0) + 1;
  if (firstErrors.length < 20) firstErrors.push(`${kind}: ${detail.slice(0, 300)}`);
}

function remember(key: string, url: string): void {
  live.push({ key, url });
  liveKeys.add(key);
}

const nextUrl = () => `https://example.com/soak/${process.pid}/${made++}?q=${Math.random().toString(36).slice(2)}`;

async function shorten(): Promise<void> {
  const url = nextUrl();
  const answer = await request('GET', `/v2/shorten?url=${encodeURIComponent(url)}`);
  if (answer.status !== 200) return error('shorten', `${answer.status} ${answer.body}`);
  remember((JSON.parse(answer.body) as { code: string }).code, url);
}

async function bulk(): Promise<void> {
  const items = Array.from({ length: 5 }, () => ({ url: nextUrl() }));
  const answer = await request('POST', '/v3/shorten/bulk', items);
  if (answer.status !== 200) return error('bulk', `${answer.status} ${answer.body}`);
  const results = JSON.parse(answer.body) as Array<{ slug?: string; url: string; error?: string }>;
  for (const [i, result] of results.entries()) {
    if (result.error || !result.slug) error('bulk item', JSON.stringify(result));
    else remember(result.slug, items[i]!.url);
  }
}

async function deleteOldest(): Promise<void> {
  const oldest = live.shift();
  if (!oldest) return;
  liveKeys.delete(oldest.key);
  const answer = await request('DELETE', `/v3/shorten/${FUZZ_HOST}/${oldest.key}`);
  if (answer.status !== 200) error('delete', `${answer.status} ${answer.body}`);
}

async function redirect(): Promise<void> {
  if (live.length === 0) return shorten();
  const link = live[Math.floor(Math.random() * live.length)]!;
  const answer = await request('GET', `/${link.key}`, undefined, false);
  // A link deleted while its redirect was on the way may answer 404; a live one never does.
  if (answer.status === 404 && !liveKeys.has(link.key)) return;
  if (answer.status !== 301 || answer.headers.location !== link.url) error('redirect', `${answer.status} ${answer.headers.location} for ${link.url}`);
}

const ANALYTICS = [
  '/v3/shorten/analytics/clicks?range=7d',
  '/v3/shorten/analytics/clicks?range=24h&granularity=hour&timezone=Europe%2FParis',
  '/v3/shorten/analytics/top-browsers?range=30d',
  '/v3/shorten/analytics/top-referers',
  '/v3/shorten/analytics/top-short-links?limit=20',
  '/v3/shorten/list?perPage=50',
];

/** Each analytics read's time, to see which one's cost grows with the run (not only the memory). */
const readTimes: Array<{ second: number; path: string; ms: number }> = [];

async function analytics(): Promise<void> {
  const path = ANALYTICS[Math.floor(Math.random() * ANALYTICS.length)]!;
  const sent = performance.now();
  const answer = await request('GET', path);
  readTimes.push({ second: (Date.now() - started) / 1000, path, ms: performance.now() - sent });
  if (answer.status !== 200) error('analytics', `${path}: ${answer.status} ${answer.body}`);
}

/** The mix, by weight; every link made is matched by a delete once the live set is full. */
const MIX: Array<[string, number, () => Promise<void>]> = [
  ['redirect', 75, redirect],
  ['shorten', 9, shorten],
  ['bulk', 3, bulk],
  ['analytics', 13, analytics],
];
const totalWeight = MIX.reduce((n, [, w]) => n + w, 0);

function pick(): [string, () => Promise<void>] {
  let roll = Math.random() * totalWeight;
  for (const [name, weight, run] of MIX) {
    roll -= weight;
    if (roll < 0) return [name, run];
  }
  return [MIX[0]![0], MIX[0]![2]];
}

const started = Date.now();
const samples: Array<{ second: number; rssMb: number; live: number }> = [];
const sample = () => samples.push({ second: Math.round((Date.now() - started) / 1000), rssMb: server.rssBytes() / MB, live: live.length });
sample();
let ticks = 0;
const sampler = setInterval(() => {
  sample();
  if (++ticks % 3 !== 0) return;
  const last = samples.at(-1)!;
  const done = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    `${last.second}s: ${done} operations, ${Object.values(errors).reduce((a, b) => a + b, 0)} errors, RSS ${last.rssMb.toFixed(1)} MB, ${last.live} live links`,
  );
}, 5_000);

// Paced: each worker keeps to its share of the rate, so the run is a steady load, not a race.
const workers = Number(values.concurrency);
const interval = (1000 * workers) / rate;
async function worker(): Promise<void> {
  let due = Date.now();
  while (Date.now() - started < durationMs) {
    const [name, run] = pick();
    try {
      await run();
      while (name !== 'redirect' && name !== 'analytics' && live.length > liveTarget) {
        counts.delete = (counts.delete ?? 0) + 1;
        await deleteOldest();
      }
    } catch (e) {
      error(name, (e as Error).message);
    }
    counts[name] = (counts[name] ?? 0) + 1;
    due += interval;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    else due = Date.now();
  }
}

try {
  await Promise.all(Array.from({ length: workers }, worker));
} finally {
  clearInterval(sampler);
  sample();
}
const seconds = (Date.now() - started) / 1000;
// Resident memory saws up and down by tens of MB as garbage (V8's, SQLite's, malloc's) is
// returned in bursts: a window's median stands for it, not one sample. Warm-up is the first fifth.
// The reference is the median of 20–50% of the run, not of 20–30%: a one-off release of memory
// and its refill (RSS 174 → 139 → 170 MB between 90 and 180 s of a 10-minute run) filled most of
// the shorter window, which then stood for a floor the server never held (docs/reliability.md).
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const window = (from: number, to: number) =>
  samples.filter((s) => s.second >= from * (durationMs / 1000) && s.second <= to * (durationMs / 1000)).map((s) => s.rssMb);
const warmMb = median(window(0.2, 0.5));
const endMb = median(window(0.9, 2));
const growth = (endMb - warmMb) / warmMb;
const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);

interface ProbeLine {
  second: number;
  thread: 'main' | 'worker';
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  liveMb: number | null;
}
const probeLines: ProbeLine[] = fs.existsSync(memoryFile)
  ? fs
      .readFileSync(memoryFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ProbeLine)
  : [];
/**
 * The RSS split, as medians over a window of the run: each thread's V8 heap (reserved, and what
 * survived its last full GC) and the rest, native (SQLite's page caches and statements, malloc,
 * code): RSS less both heaps' reserve. A leak in JS shows in `live`, garbage not yet collected
 * only in `heapTotal`; native growth is SQLite's caches filling or a native leak.
 */
function split(from: number, to: number) {
  const within = (thread: ProbeLine['thread']) =>
    probeLines.filter((l) => l.thread === thread && l.second >= from * (durationMs / 1000) && l.second <= to * (durationMs / 1000));
  const main = within('main');
  const worker = within('worker');
  const workerHeapAt = (second: number) =>
    worker.reduce((best, l) => (Math.abs(l.second - second) < Math.abs(best.second - second) ? l : best), worker[0]!);
  const round = (value: number) => Number(value.toFixed(1));
  if (main.length === 0 || worker.length === 0) return undefined;
  return {
    mainHeapTotalMb: round(median(main.map((l) => l.heapTotalMb))),
    mainLiveMb: round(median(main.map((l) => l.liveMb ?? Number.NaN).filter((v) => !Number.isNaN(v)))),
    workerHeapTotalMb: round(median(worker.map((l) => l.heapTotalMb))),
    workerLiveMb: round(median(worker.map((l) => l.liveMb ?? Number.NaN).filter((v) => !Number.isNaN(v)))),
    nativeMb: round(median(main.map((l) => l.rssMb - l.heapTotalMb - workerHeapAt(l.second).heapTotalMb))),
  };
}
const alive = server.child.exitCode === null;
const report = {
  minutes: Number(values.minutes),
  seconds,
  operations: counts,
  requestsPerSecond: Math.round(Object.values(counts).reduce((a, b) => a + b, 0) / seconds),
  linksMade: made,
  liveLinksAtEnd: live.length,
  errors,
  firstErrors,
  rssStartMb: Number(samples[0]!.rssMb.toFixed(1)),
  /** Medians of the samples from 20% to 30% of the run, and of its last 10%. */
  rssWarmMb: Number(warmMb.toFixed(1)),
  rssEndMb: Number(endMb.toFixed(1)),
  rssLastSampleMb: Number(samples.at(-1)!.rssMb.toFixed(1)),
  rssMaxMb: Number(Math.max(...samples.map((s) => s.rssMb)).toFixed(1)),
  rssGrowthAfterWarmUp: Number((growth * 100).toFixed(1)),
  /** Median milliseconds of each analytics read after warm-up and in the last tenth. */
  analyticsMs: Object.fromEntries(
    ANALYTICS.map((p) => {
      const times = (from: number, to: number) =>
        readTimes.filter((t) => t.path === p && t.second >= from * (durationMs / 1000) && t.second <= to * (durationMs / 1000)).map((t) => t.ms);
      return [p, { warm: Number(median(times(0.2, 0.3)).toFixed(1)), end: Number(median(times(0.9, 2)).toFixed(1)) }];
    }),
  ),
  /** The same windows' RSS split by bench/soak-memory-probe.mjs. */
  memoryWarm: split(0.2, 0.3),
  memoryEnd: split(0.9, 2),
  probe: probeLines,
  samples: samples.map((s) => ({ ...s, rssMb: Number(s.rssMb.toFixed(1)) })),
};
agent.destroy();
await server.stop();
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ ...report, samples: undefined, probe: undefined }, null, 2));
if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
const failures = [
  ...(errorCount > 0 ? [`${errorCount} errors (first: ${firstErrors[0]})`] : []),
  ...(growth >= 0.1 ? [`RSS grew ${(growth * 100).toFixed(1)}% after warm-up (${report.rssWarmMb} → ${report.rssEndMb} MB)`] : []),
  ...(alive ? [] : ['the server died']),
];
const show = (m: ReturnType<typeof split>) =>
  m
    ? `main heap ${m.mainHeapTotalMb} MB (live ${m.mainLiveMb}), worker heap ${m.workerHeapTotalMb} MB (live ${m.workerLiveMb}), native ${m.nativeMb} MB`
    : 'no probe';
console.log(`memory after warm-up: ${show(report.memoryWarm)}\nmemory at the end:    ${show(report.memoryEnd)}`);
console.log(failures.length === 0 ? 'soak: passed' : `soak: FAILED\n- ${failures.join('\n- ')}`);
process.exitCode = failures.length === 0 ? 0 : 1;
