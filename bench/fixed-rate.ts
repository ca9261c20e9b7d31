// The "analytics fixed-rate" scenarios: visits at a set rate (harness/paced-load.ts), each to a random one
// of the preloaded links ("analytics fixed-rate") or to a link ranked by Zipf s = 1 ("analytics fixed-rate
// zipf"); then how many the server answered, counted, stored in its analytics and dropped, and its CPU per
// stored visit, the analytics writer's thread apart. A run whose generator passed GENERATOR_LIMIT of its
// core is invalid.
import { type Distribution, type PacedLoadResult, type PacedLoadSpec, runPacedLoad } from '../harness/paced-load.js';
import { metricValue, scrapeMetrics, splitThreadCpu, type ThreadSplit, threadCpuSeconds, visitTotals } from '../harness/server-figures.js';
import type { RunningServer } from '../harness/servers.js';
import { droppedVisits, settle } from '../harness/servers.js';
import { GENERATOR_LIMIT } from './load.js';

export type { Distribution };

/** The scenario names `--only` takes, by distribution. */
export const FIXED_RATE_SCENARIOS: Record<Distribution, string> = {
  link: 'analytics fixed-rate',
  zipf: 'analytics fixed-rate zipf',
};

/** The share of the rate asked a run must send, over the time wrk really ran, to have held it. */
export const HELD_SHARE = 0.97;

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
