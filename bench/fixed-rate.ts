// The "analytics fixed-rate" scenarios: visits at a set rate, not as fast as possible, each to a random
// one of the preloaded links ("analytics fixed-rate") or to a link ranked by Zipf s = 1 ("analytics
// fixed-rate zipf"); then how many the server answered, counted, stored in its analytics and dropped, and
// its CPU per stored visit, the analytics writer's thread apart. The generator is wrk paced by
// bench/wrk-paced.lua (a Node generator in the harness sat at 92% of its core and sent ~1,500/s when
// asked for 10,000/s), pinned to core 0 as the other loads are; its CPU share of its core is reported,
// and a run where it passed GENERATOR_LIMIT is invalid.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { RunningServer } from '../harness/servers.js';
import { droppedVisits, settle } from '../harness/servers.js';
import { GENERATOR_LIMIT, parseWrkResult, scriptArgs } from './load.js';

/** Where each visit goes: a uniformly random link, or a link ranked by Zipf s = 1 (rank 1: link 0, the hot one). */
export type Distribution = 'link' | 'zipf';

/** The scenario names `--only` takes, by distribution. */
export const FIXED_RATE_SCENARIOS: Record<Distribution, string> = {
  link: 'analytics fixed-rate',
  zipf: 'analytics fixed-rate zipf',
};

export interface PacedLoadSpec {
  port: number;
  host: string;
  /** Links preloaded: each visit goes to one of them. */
  links: number;
  distribution: Distribution;
  /** Visits a second asked for. */
  rate: number;
  seconds: number;
  /** Requests in flight at most: wrk's connections, each waiting for its answer before its next slot. */
  connections: number;
}

export interface PacedLoadResult {
  /** Requests written by the generator (those in flight when it stopped included). */
  sent: number;
  /** Answers received with a status below 400. */
  answered: number;
  /** Socket errors, timeouts and answers of 400 or more. */
  errors: number;
  /** Requests sent more than 10 ms after their slot: the connections were all waiting on the server. */
  late: number;
  seconds: number;
  /** Requests a second actually sent: below the rate asked for means the generator or the server fell behind. */
  achievedRate: number;
  /** Answer latency in ms, from the request's write (not its slot). */
  p50: number;
  p99: number;
  /** The generator's CPU time over the load's wall time: 1 is its whole core. */
  generatorCpuShare: number;
}

/** The share of the rate asked a run must send to have held it (wrk stops on time, with up to a slot's rounding). */
export const HELD_SHARE = 0.97;

/** wrk's connections for a paced load: enough to ride out a 10 ms stall of the server at 10,000/s. */
export const PACED_CONNECTIONS = 100;

const SCRIPT = path.join(import.meta.dirname, 'wrk-paced.lua');
const hasTaskset = fs.existsSync('/usr/bin/taskset') || fs.existsSync('/bin/taskset');

/**
 * The value of a command-line flag that takes positive whole numbers separated by commas
 * (`--rates 2000,5000,10000`, `--fixed-seconds 60`), or an error that names the flag.
 */
export function positiveWholes(flag: string, text: string | undefined): number[] {
  const values = (text ?? '').split(',').map((part) => part.trim());
  if (values.some((value) => !/^[1-9]\d{0,8}$/.test(value)))
    throw new Error(`${flag} takes positive whole numbers separated by commas, e.g. ${flag} 2000,10000 (got "${text ?? ''}")`);
  return values.map(Number);
}

/** The generator's output: wrk-load.lua's BENCH_RESULT line and wrk-paced.lua's BENCH_PACED line. */
export function parsePacedResult(stdout: string): PacedLoadResult {
  const load = parseWrkResult(stdout);
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_PACED '));
  if (!line) throw new Error(`wrk printed no paced result:\n${stdout}`);
  const paced = JSON.parse(line.slice('BENCH_PACED '.length)) as { sent: number; answered: number; late: number };
  return {
    sent: paced.sent,
    answered: paced.answered,
    errors: load.errors,
    late: paced.late,
    seconds: load.seconds,
    achievedRate: Math.round(paced.sent / load.seconds),
    p50: load.p50,
    p99: load.p99,
    generatorCpuShare: load.generatorCpuShare,
  };
}

/** Sends `rate` GET /<key> a second for `seconds` seconds: wrk, one thread, on core 0. */
export async function runPacedLoad(spec: PacedLoadSpec): Promise<PacedLoadResult> {
  const wrk = [
    'wrk',
    '-t1',
    `-c${spec.connections}`,
    `-d${spec.seconds}s`,
    '--timeout',
    '10s',
    '-s',
    SCRIPT,
    `http://127.0.0.1:${spec.port}`,
    '--',
    String(spec.rate),
    ...scriptArgs({ kind: spec.distribution, links: spec.links }, spec.host),
  ];
  const [command, ...args] = hasTaskset ? ['taskset', '-c', '0', ...wrk] : wrk;
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(command!, args, { timeout: (spec.seconds + 60) * 1000 }, (error, out, err) =>
      error ? reject(new Error(`wrk failed: ${error.message}\n${err}`)) : resolve(out),
    );
  });
  return parsePacedResult(stdout);
}

/** What a SQLite database holds of the visits (read once the server has stopped and flushed). */
export interface VisitTotals {
  /** The click totals: the sum of link_clicks. */
  counted: number;
  /** Visits of people the analytics stored: events (a row counts `clicks` identical visits), or the workspace rollups without them. */
  stored: number;
}

export function visitTotals(dbFile: string): VisitTotals {
  const db = new Database(dbFile, { readonly: true });
  const sum = (query: string) => (db.prepare(query).get() as { n: number }).n;
  try {
    const hasEvents = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'click_events'").get() !== undefined;
    return {
      counted: sum('SELECT coalesce(sum(clicks), 0) AS n FROM link_clicks'),
      stored: hasEvents
        ? sum('SELECT coalesce(sum(clicks), 0) AS n FROM click_events WHERE bot IS NULL')
        : sum("SELECT coalesce(sum(clicks), 0) AS n FROM click_rollups WHERE link_id = 0 AND period = 'quarter' AND dimension = 'clicks'"),
    };
  } finally {
    db.close();
  }
}

/** CPU seconds of each thread of a process, by thread id (utime + stime of /proc/PID/task/TID/stat). */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}
// USER_HZ, the unit of /proc times.
const CLOCK_TICKS = 100;

export interface ThreadSplit {
  /** The main thread: the event loop, answering the redirects and noting the visits. */
  main: number;
  /**
   * The busiest other thread: the SQLite background thread that writes the visits and the click totals
   * (Node 20 names every thread "node", so it is told apart by its work: at thousands of visits a second
   * it is far ahead of V8's helper threads).
   */
  writer: number;
  /** Every other thread: V8's garbage collection and compiler helpers, libuv's pool. */
  rest: number;
}

/** How the CPU a process used between two readings of threadCpuSeconds split between its threads. */
export function splitThreadCpu(pid: number, before: Map<number, number>, after: Map<number, number>): ThreadSplit {
  const used = [...after].map(([tid, seconds]) => ({ tid, seconds: seconds - (before.get(tid) ?? 0) }));
  const main = used.find((t) => t.tid === pid)?.seconds ?? 0;
  const others = used.filter((t) => t.tid !== pid).map((t) => t.seconds);
  const writer = Math.max(0, ...others);
  const total = others.reduce((n, s) => n + s, 0);
  return { main, writer, rest: total - writer };
}

/** A counter of the server's GET /metrics (Prometheus text), or undefined when absent. */
export function metricValue(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** GET /metrics of a server on its own address, or '' when it has none. */
function scrapeMetrics(port: number): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? body : ''));
    });
    request.on('error', () => resolve(''));
  });
}

export interface FixedRateResult extends PacedLoadResult {
  distribution: Distribution;
  rate: number;
  /** The generator stayed below GENERATOR_LIMIT of its core: the figures measured the server. */
  valid: boolean;
  /** The rate asked was sent (within HELD_SHARE): false with a valid generator means the server could not keep up. */
  held: boolean;
  /** Visits in the click totals. */
  counted: number;
  /** Visits the analytics stored. */
  stored: number;
  /** Visits the analytics dropped because its buffer was full (the server's counter). */
  dropped: number;
  /**
   * The server's CPU (every thread) over the wall time of the load and its settling: near 1 with the rate
   * not held, the server's core was the limit; far below, other work on that core was (a shared machine).
   */
  serverCoreShare: number;
  /** The server's CPU (every thread, until idle again) per stored visit, in µs. */
  serverCpuMicrosPerVisit: number;
  /** Its main thread's (the redirects) per stored visit, in µs. */
  mainCpuMicrosPerVisit: number;
  /** The analytics writer's thread per stored visit, in µs. */
  writerCpuMicrosPerVisit: number;
  settleSeconds: number;
}

/**
 * One fixed-rate run on a fresh server: `start` starts it on `dbFile` (a copy of the preloaded
 * links); the server is stopped (SIGTERM flushes its buffer) before the count. Visits of earlier
 * runs on the same file are subtracted.
 */
export async function fixedRate(start: () => Promise<RunningServer>, dbFile: string, spec: Omit<PacedLoadSpec, 'port'>): Promise<FixedRateResult> {
  const before = visitTotals(dbFile);
  const server = await start();
  const pid = server.child.pid!;
  let load: PacedLoadResult;
  let threads: ThreadSplit;
  let settleSeconds: number;
  let droppedCounter: number | undefined;
  try {
    const threadsBefore = threadCpuSeconds(pid);
    load = await runPacedLoad({ ...spec, port: server.port });
    settleSeconds = await settle(server);
    threads = splitThreadCpu(pid, threadsBefore, threadCpuSeconds(pid));
    droppedCounter = metricValue(await scrapeMetrics(server.port), 'brief_analytics_visits_dropped_total');
  } finally {
    await server.stop();
  }
  const after = visitTotals(dbFile);
  const stored = after.stored - before.stored;
  const serverSeconds = threads.main + threads.writer + threads.rest;
  const perVisit = (seconds: number) => Math.round(((seconds * 1e6) / Math.max(stored, 1)) * 10) / 10;
  return {
    distribution: spec.distribution,
    rate: spec.rate,
    ...load,
    valid: load.generatorCpuShare <= GENERATOR_LIMIT,
    held: load.achievedRate >= spec.rate * HELD_SHARE,
    counted: after.counted - before.counted,
    stored,
    // The counter when the server has /metrics, else the running total its warnings give.
    dropped: Math.max(droppedCounter ?? 0, droppedVisits(server)),
    serverCoreShare: Math.round((serverSeconds / (load.seconds + settleSeconds)) * 100) / 100,
    serverCpuMicrosPerVisit: perVisit(serverSeconds),
    mainCpuMicrosPerVisit: perVisit(threads.main),
    writerCpuMicrosPerVisit: perVisit(threads.writer),
    settleSeconds: Math.round(settleSeconds * 10) / 10,
  };
}
