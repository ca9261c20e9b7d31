// The fuzz loop: generated hostile requests against a running server, every answer checked,
// the server's memory sampled, and at the end a check that it still serves.
import fc from 'fast-check';
import { HostileClient } from './client.js';
import { answerProblem } from './error-shape.js';
import { type FuzzTargets, type HostileRequest, hostileRequests, type Operation, operationsOf } from './requests.js';

export interface FuzzOptions {
  port: number;
  targets: FuzzTargets;
  /** The token the check after the fuzz shortens with: not one the fuzz spent its rate limit on. */
  checkToken: string;
  requests: number;
  concurrency: number;
  seed: number;
  /** The server's resident memory now, in bytes. */
  rssBytes: () => number;
  /** Called every `progressEvery` requests. */
  onProgress?: (done: number, report: FuzzReport) => void;
  progressEvery?: number;
}

export interface FuzzProblem {
  problem: string;
  request: { method: string; target: string; headers: Array<[string, string]>; body?: string; raw: boolean; route: string };
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** Requests sent over a raw socket (bytes node:http's client refuses). */
  raw: number;
  routes: number;
  byStatus: Record<string, number>;
  /** Connections closed without an answer, by reason (after a refusal that closed the socket, say). */
  dropped: Record<string, number>;
  problems: FuzzProblem[];
  problemCount: number;
  durationSeconds: number;
  rssStartMb: number;
  /**
   * The reference after warm-up: the median of the samples taken between a fifth and half of the
   * requests (caches and pools have filled; one sample alone could fall before the plateau).
   */
  rssWarmMb: number;
  /** The median of the samples in the last fifth of the requests, the last one included. */
  rssEndMb: number;
  /** RSS every twentieth of the requests (the last at the end), in MB. */
  rssSamplesMb: number[];
  alive: boolean;
}

const BATCH = 500;
/** RSS samples a run takes, one every twentieth of its requests. */
const SAMPLES = 20;

/** The middle value (the mean of the two middle ones for an even count); undefined for none. */
export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
const MB = 1024 * 1024;

/** Fetches the API document from the server and lists its operations. */
export async function fetchOperations(port: number): Promise<Operation[]> {
  const response = await fetch(`http://127.0.0.1:${port}/v2/openapi.json`);
  if (!response.ok) throw new Error(`GET /v2/openapi.json: ${response.status}`);
  return operationsOf((await response.json()) as Parameters<typeof operationsOf>[0]);
}

/**
 * A connection the server closed without answering is a problem unless the request was one
 * a server may refuse by closing (CONNECT, which node:http answers by closing the socket when
 * nothing tunnels, is made a problem on purpose: every request gets an answer).
 */
function dropProblem(request: HostileRequest, reason: string): string | null {
  // node:http's client may see its write fail (EPIPE, ECONNRESET) when the server answered
  // 431 and closed while the huge headers were still being written.
  const headerBytes = request.target.length + request.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  if (headerBytes > 16 * 1024) return null;
  return `no answer: ${reason}`;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const operations = await fetchOperations(options.port);
  const arbitrary = hostileRequests(operations, options.targets);
  const client = new HostileClient(options.port, options.concurrency);
  const started = Date.now();
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    raw: 0,
    routes: operations.length,
    byStatus: {},
    dropped: {},
    problems: [],
    problemCount: 0,
    durationSeconds: 0,
    rssStartMb: options.rssBytes() / MB,
    rssWarmMb: 0,
    rssEndMb: 0,
    rssSamplesMb: [],
    alive: false,
  };
  const sampleEvery = Math.max(1, Math.floor(options.requests / SAMPLES));
  const progressEvery = options.progressEvery ?? 10_000;
  try {
    for (let batch = 0; report.requests < options.requests; batch++) {
      const size = Math.min(BATCH, options.requests - report.requests);
      const requests = fc.sample(arbitrary, { numRuns: size, seed: options.seed + batch });
      let next = 0;
      const worker = async () => {
        while (next < requests.length) {
          const request = requests[next++]!;
          const answer = await client.send(request);
          report.requests++;
          if (request.raw) report.raw++;
          report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
          const path = request.target.split('?')[0]!;
          const problem = answer.dropped
            ? dropProblem(request, answer.dropped)
            : answerProblem(request.method, path, answer.status, answer.contentType, answer.body);
          if (answer.dropped) report.dropped[answer.dropped] = (report.dropped[answer.dropped] ?? 0) + 1;
          if (problem) {
            report.problemCount++;
            if (report.problems.length < 50) report.problems.push({ problem, request: describe(request) });
          }
          if (report.requests % sampleEvery === 0) report.rssSamplesMb.push(options.rssBytes() / MB);
          if (report.requests % progressEvery === 0) options.onProgress?.(report.requests, report);
        }
      };
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    }
  } finally {
    client.close();
  }
  report.durationSeconds = (Date.now() - started) / 1000;
  // The last sample at the end of the run (unless one was just taken there).
  if (report.requests % sampleEvery !== 0) report.rssSamplesMb.push(options.rssBytes() / MB);
  const { warmMb, endMb } = rssWindows(report.rssSamplesMb);
  report.rssWarmMb = warmMb ?? report.rssStartMb;
  report.rssEndMb = endMb;
  report.rssSamplesMb = report.rssSamplesMb.map((mb) => Math.round(mb * 10) / 10);
  report.alive = await stillServes(options.port, options.targets.host, options.checkToken);
  for (const key of ['rssStartMb', 'rssWarmMb', 'rssEndMb'] as const) report[key] = Math.round(report[key] * 10) / 10;
  return report;
}

/** After the attack: a new link can be made and followed. */
async function stillServes(port: number, host: string, token: string): Promise<boolean> {
  const client = new HostileClient(port, 1);
  const get = (target: string, headers: Array<[string, string]> = []) =>
    client.send({ method: 'GET', target, headers: [['Host', host], ...headers], raw: false, route: 'check' });
  try {
    const url = `https://example.com/after-the-fuzz/${Date.now()}`;
    const made = await get(`/v2/shorten?url=${encodeURIComponent(url)}`, [['Authorization', `Bearer ${token}`]]);
    if (made.status !== 200) return false;
    const { code } = JSON.parse(made.body) as { code: string };
    const followed = await client.sendWithHeaders({
      method: 'GET',
      target: `/${code}`,
      headers: [['Host', host]],
      raw: false,
      route: 'check',
    });
    return followed.status >= 301 && followed.status <= 308 && followed.headers.location === url;
  } finally {
    client.close();
  }
}

/** A request as a report shows it: long values cut. */
function describe(request: HostileRequest): FuzzProblem['request'] {
  const cut = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…(${s.length})` : s);
  return {
    method: request.method,
    target: cut(request.target),
    headers: request.headers.slice(0, 12).map(([k, v]) => [k, cut(v)]),
    body: request.body ? cut(request.body.toString('utf8')) : undefined,
    raw: request.raw,
    route: request.route,
  };
}

/**
 * The memory rule's two figures from RSS samples taken at even steps of a run (the last at its end):
 * the median of those between a fifth and half of the run, and the median of the last fifth.
 */
export function rssWindows(samples: readonly number[]): { warmMb: number | undefined; endMb: number } {
  // Sample i of n stands for the point (i + 1) / n of the run.
  const n = samples.length;
  const warmMb = median(samples.slice(Math.max(0, Math.ceil(n / 5) - 1), Math.floor(n / 2)));
  const endMb = median(samples.slice(Math.min(Math.floor((4 * n) / 5), n - 1))) ?? Number.NaN;
  return { warmMb, endMb };
}

/**
 * Whether a report passes: no problem, the server alive, memory flat after warm-up (the median of the
 * last fifth's RSS samples at most `maxGrowth` above the median of those between a fifth and half).
 */
export function verdict(report: FuzzReport, maxGrowth = 0.1): string[] {
  const failures: string[] = [];
  if (report.problemCount > 0) failures.push(`${report.problemCount} wrong answers (first: ${report.problems[0]?.problem})`);
  if (!report.alive) failures.push('the server no longer serves');
  const growth = (report.rssEndMb - report.rssWarmMb) / report.rssWarmMb;
  if (growth > maxGrowth) failures.push(`RSS grew ${(growth * 100).toFixed(1)}% after warm-up (${report.rssWarmMb} → ${report.rssEndMb} MB)`);
  return failures;
}
