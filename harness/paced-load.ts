// A load at a set rate, not as fast as possible: wrk (one thread, pinned to core 0 as the other loads
// are) paced by bench/wrk-paced.lua, GET /<key> of the preloaded links (bench/link-keys.ts) picked at
// random or ranked by Zipf s = 1. A Node generator in the harness sat at 92% of its core and sent
// ~1,500/s when asked for 10,000/s; wrk reports its own CPU share so a run it limited shows.
import path from 'node:path';
import { freshRunId, runWrk, type WrkLoad } from './wrk.js';
import { parseWrkResult } from './wrk-result.js';

/** Where each visit goes: a uniformly random link, or a link ranked by Zipf s = 1 (rank 1: link 0, the hot one). */
export type Distribution = 'link' | 'zipf';

export interface PacedLoadSpec extends WrkLoad {
  /** Links preloaded: each visit goes to one of them. */
  links: number;
  distribution: Distribution;
  /** Visits a second asked for. */
  rate: number;
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

/** wrk's connections for a paced load: enough to ride out a 10 ms stall of the server at 10,000/s. */
export const PACED_CONNECTIONS = 100;

const SCRIPT = path.resolve(import.meta.dirname, '../bench/wrk-paced.lua');

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
  // wrk-paced.lua's RATE, then wrk-load.lua's KIND COUNT HOST RUN.
  const stdout = await runWrk({
    port: spec.port,
    connections: spec.connections,
    seconds: spec.seconds,
    script: SCRIPT,
    scriptArgs: [String(spec.rate), spec.distribution, String(spec.links), spec.host, freshRunId()],
    graceSeconds: 60,
    onCoreZero: true,
  });
  return parsePacedResult(stdout);
}
