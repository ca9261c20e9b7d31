// What the flood benchmarks (password-flood, sign-in-flood, qr-flood) share: their options, one built
// server on a database of its own beside the wrk redirect load, requests that time their answers, and
// the figures read from quiet and flooded measures. Each flood benchmark brings only its flood.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pinSelf, type RunningServer, startBrief } from '../harness/servers.js';
import { ensureWrk, type LoadResult, runLoad } from './load.js';

export const DOMAIN = 'brief.bench';
/** How long a round waits for the flood's last answers (and a measure for its last fetch) before it counts them unanswered. */
export const MAX_STRAGGLE_MS = 15_000;
export const REDIRECT_CONNECTIONS = 20;

const args = process.argv.slice(2);
/** The value after `name` on the command line. */
export const option = (name: string): string | undefined => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
export const flag = (name: string): boolean => args.includes(name);

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** Requests one at a time (setup, the script's fetches): kept alive. */
const agent = new http.Agent({ keepAlive: true });
const agents = [agent];

/** An agent for a flood's connections (destroyed when the benchmark ends): as many as are waiting, unless `maxSockets`. */
export function floodAgent(maxSockets = Number.POSITIVE_INFINITY): http.Agent {
  const made = new http.Agent({ keepAlive: true, maxSockets });
  agents.push(made);
  return made;
}

/** One request to the server under test, on host DOMAIN, timed from its start to its last byte. */
export function request(
  port: number,
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: string; via?: http.Agent } = {},
): Promise<Answer> {
  const started = performance.now();
  const headers = { host: DOMAIN, ...options.headers };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, agent: options.via ?? agent, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};
export const median = (values: number[]): number => percentile(values, 50);

/** How many answers had each status. */
export function countByStatus(answers: Array<{ status: number }>): Record<number, number> {
  const byStatus: Record<number, number> = {};
  for (const answer of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
  return byStatus;
}

/** The median of one figure over the rounds, quiet and flooded. */
export function quietAndFlood<M>(rounds: Array<{ quiet: M; flood: M }>, figure: (measure: M) => number): { quiet: number; flood: number } {
  return { quiet: median(rounds.map((r) => figure(r.quiet))), flood: median(rounds.map((r) => figure(r.flood))) };
}

/** The median over the rounds of flooded redirects a second over quiet ones. */
export function redirectRatio(rounds: Array<{ quiet: { redirectsPerSecond: number }; flood: { redirectsPerSecond: number } }>): number {
  return Number(median(rounds.map((r) => r.flood.redirectsPerSecond / r.quiet.redirectsPerSecond)).toFixed(3));
}

export const machine = () => ({ cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))) });

/** The wrk redirect load on one path, for `seconds`. */
export const redirectLoad = (server: RunningServer, redirectPath: string, seconds: number): Promise<LoadResult> =>
  runLoad({ port: server.port, host: DOMAIN, request: { kind: 'fixed', path: redirectPath }, connections: REDIRECT_CONNECTIONS, seconds });

/** The web app's script: the path its page loads it from. */
async function scriptPath(port: number): Promise<string> {
  const page = await request(port, 'GET', '/');
  const script = /<script[^>]*src="([^"]+)"/.exec(page.body)?.[1];
  if (!script) throw new Error(`no script in the web app's page: ${page.body.slice(0, 200)}`);
  return script;
}

interface ScriptMeasure {
  redirectsPerSecond: number;
  redirectP99: number;
  redirectErrors: number;
  assetMedianMs: number;
  assetP99Ms: number;
}

/** The redirect load and the web app's script fetched one at a time, for `seconds`. */
async function measureWithScript(server: RunningServer, redirectPath: string, script: string, seconds: number): Promise<ScriptMeasure> {
  const assetTimes: number[] = [];
  const until = Date.now() + seconds * 1000;
  let fetching = 0;
  const assets = (async () => {
    while (Date.now() < until) {
      fetching = performance.now();
      assetTimes.push((await request(server.port, 'GET', script)).ms);
      fetching = 0;
    }
  })();
  const redirects = await redirectLoad(server, redirectPath, seconds);
  // A fetch still waiting MAX_STRAGGLE_MS after the load counts with the time it has waited so far.
  await Promise.race([assets, new Promise((resolve) => setTimeout(resolve, MAX_STRAGGLE_MS))]);
  if (fetching !== 0) assetTimes.push(performance.now() - fetching);
  return {
    redirectsPerSecond: Math.round(redirects.requests / redirects.seconds),
    redirectP99: redirects.p99,
    redirectErrors: redirects.errors,
    assetMedianMs: Number(percentile(assetTimes, 50).toFixed(1)),
    assetP99Ms: Number(percentile(assetTimes, 99).toFixed(1)),
  };
}

/** A flood under way: its answers so far; `stop` ends it and waits (at most MAX_STRAGGLE_MS) for its last answers. */
export interface Flood {
  answers: Answer[];
  stop(): Promise<unknown>;
}

/**
 * Round after round, the redirects of `redirectPath` and the web app's script measured quietly, then while
 * `flood(round)` runs; the flood stops after its measure, before the next quiet one. Answers every flood's
 * answers and the figures over the rounds (medians, quiet and flooded).
 */
export async function quietThenFlood(
  name: string,
  server: RunningServer,
  redirectPath: string,
  timing: { seconds: number; rounds: number },
  flood: (round: number) => Flood,
) {
  const script = await scriptPath(server.port);
  const measure = () => measureWithScript(server, redirectPath, script, timing.seconds);
  const rounds: Array<{ quiet: ScriptMeasure; flood: ScriptMeasure; answers: Answer[] }> = [];
  for (let round = 1; round <= timing.rounds; round++) {
    const quiet = await measure();
    const running = flood(round);
    const flooded = await measure();
    await running.stop();
    rounds.push({ quiet, flood: flooded, answers: running.answers });
    console.error(`[${name}] round ${round}: ${JSON.stringify({ quiet, flood: flooded, answered: running.answers.length })}`);
  }
  return {
    answers: rounds.flatMap((r) => r.answers),
    figures: {
      server: option('--server') ?? '.',
      seconds: timing.seconds,
      rounds: timing.rounds,
      redirectRatio: redirectRatio(rounds),
      redirectP99Ms: quietAndFlood(rounds, (m) => m.redirectP99),
      scriptMedianMs: quietAndFlood(rounds, (m) => m.assetMedianMs),
      scriptP99Ms: quietAndFlood(rounds, (m) => m.assetP99Ms),
    },
  };
}

export interface FloodSetup<T> {
  /** Names the scratch folder: brief-<name>-. */
  name: string;
  /** Makes the database before the server starts (DATABASE_URL and BASE_URL in `env`). */
  prepare(env: Record<string, string>): Promise<T> | T;
  /** The server's environment beyond startBrief's. */
  env: Record<string, string>;
}

/**
 * Runs `bench` against one built server (`--server DIR`: another build, DIR/dist) on a scratch SQLite
 * database made by `prepare`, with wrk ready and this process pinned; stops and removes it all after,
 * and exits 1 on a failure.
 */
export function runFloodBench<T>(setup: FloodSetup<T>, bench: (server: RunningServer, prepared: T) => Promise<void>): void {
  const run = async () => {
    ensureWrk();
    pinSelf();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `brief-${setup.name}-`));
    const dbFile = path.join(dir, 'brief.db');
    const prepared = await setup.prepare({ DATABASE_URL: `sqlite:${dbFile}`, BASE_URL: `http://${DOMAIN}` });
    const server = await startBrief('brief', { dbFile, domain: DOMAIN, root: option('--server'), env: setup.env });
    try {
      await bench(server, prepared);
    } finally {
      await server.stop();
      for (const made of agents) made.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
