// The "analytics fixed-rate" scenario: visits at a set rate, not as fast as possible,
// each to a random one of the preloaded links, then how many the analytics stored and dropped and
// the server's CPU per stored visit. wrk cannot pace (wrk2 is not in Debian); this generator, in
// Node, can because the rates asked of it (thousands a second) are far below what one core sends.
// Its CPU share of its core is measured and reported like wrk's, so a run where it was the limit shows.
import http from 'node:http';
import Database from 'better-sqlite3';
import type { RunningServer } from '../harness/servers.js';
import { droppedVisits, settle } from '../harness/servers.js';
import { linkKey } from './link-keys.js';

export interface PacedLoadSpec {
  port: number;
  host: string;
  /** Links preloaded: each visit goes to a random one of them. */
  links: number;
  /** Visits a second asked for. */
  rate: number;
  seconds: number;
}

export interface PacedLoadResult {
  /** Visits sent and answered with a redirect (a status below 400). */
  sent: number;
  errors: number;
  seconds: number;
  /** Visits a second actually sent: below the rate asked for means the generator or server fell behind. */
  achievedRate: number;
  /** The generator's CPU time over the load's wall time: 1 is its whole core. */
  generatorCpuShare: number;
}

/** Ticks a second: each tick sends the visits due by then, so the rate holds on average over any 10 ms. */
const TICK_MS = 10;
/** A browser's User-Agent: the analytics does not count bots as people. */
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** Sends `rate` GET /<key> a second for `seconds` seconds over keep-alive connections. */
export async function runPacedLoad(spec: PacedLoadSpec): Promise<PacedLoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let sent = 0;
  let errors = 0;
  let due = 0;
  let inFlight = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + spec.seconds * 1000;
  const visit = () =>
    new Promise<void>((resolve) => {
      inFlight++;
      const key = linkKey(Math.floor(Math.random() * spec.links));
      const request = http.get(
        { agent, port: spec.port, host: '127.0.0.1', path: `/${key}`, headers: { Host: spec.host, 'User-Agent': USER_AGENT } },
        (res) => {
          res.resume();
          res.on('end', () => {
            if ((res.statusCode ?? 500) >= 400) errors++;
            else sent++;
            inFlight--;
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors++;
        inFlight--;
        resolve();
      });
    });
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const target = Math.floor((Math.min(now, end) - started) * (spec.rate / 1000));
      for (; due < target; due++) void visit();
      if (now >= end) resolve();
      else setTimeout(tick, TICK_MS);
    };
    tick();
  });
  while (inFlight > 0) await new Promise((r) => setTimeout(r, 10));
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return {
    sent,
    errors,
    seconds,
    achievedRate: Math.round((sent + errors) / seconds),
    generatorCpuShare: Math.round(((cpu.user + cpu.system) / 1e6 / seconds) * 100) / 100,
  };
}

/** Visits the analytics stored in a SQLite database (read once the server has stopped and flushed): a row counts `clicks` identical visits. */
export function storedVisits(dbFile: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT coalesce(sum(clicks), 0) AS n FROM click_events').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

export interface FixedRateResult extends PacedLoadResult {
  rate: number;
  stored: number;
  dropped: number;
  /** The server's CPU (redirects and the analytics writer, until idle again) per stored visit, in µs. */
  serverCpuMicrosPerVisit: number;
  settleSeconds: number;
}

/**
 * One fixed-rate run on a fresh server: `start` starts it on `dbFile` (a copy of the preloaded
 * links with no visits yet); the server is stopped (SIGTERM flushes its buffer) before the count.
 */
export async function fixedRate(start: () => Promise<RunningServer>, dbFile: string, spec: Omit<PacedLoadSpec, 'port'>): Promise<FixedRateResult> {
  const before = storedVisits(dbFile);
  const server = await start();
  let load: PacedLoadResult;
  let cpuSeconds: number;
  let settleSeconds: number;
  try {
    const cpuBefore = server.cpuSeconds();
    load = await runPacedLoad({ ...spec, port: server.port });
    settleSeconds = await settle(server);
    cpuSeconds = server.cpuSeconds() - cpuBefore;
  } finally {
    await server.stop();
  }
  const stored = storedVisits(dbFile) - before;
  return {
    rate: spec.rate,
    ...load,
    stored,
    dropped: droppedVisits(server),
    serverCpuMicrosPerVisit: Math.round(((cpuSeconds * 1e6) / Math.max(stored, 1)) * 10) / 10,
    settleSeconds: Math.round(settleSeconds * 10) / 10,
  };
}
