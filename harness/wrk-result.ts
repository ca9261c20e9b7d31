// What bench/wrk-load.lua prints at the end of a wrk run (its BENCH_RESULT line), read by the benchmark's
// loads (bench/load.ts) and the paced load (harness/paced-load.ts).

export interface LoadResult {
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  /** Socket errors, timeouts and answers with a status of 400 or more. */
  errors: number;
  /** The generator's CPU time over the load's wall time: 1 is its whole core. */
  generatorCpuShare: number;
}

// USER_HZ, the unit of /proc times (the script reads its own /proc/self/stat).
const CLOCK_TICKS = 100;

/** The BENCH_RESULT line bench/wrk-load.lua prints at the end of a run, as a LoadResult. */
export function parseWrkResult(stdout: string): LoadResult {
  const line = stdout.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  if (!line) throw new Error(`wrk printed no result:\n${stdout}`);
  const r = JSON.parse(line.slice('BENCH_RESULT '.length)) as {
    requests: number;
    durationMicros: number;
    errors: number;
    p50Micros: number;
    p99Micros: number;
    cpuTicks: number;
  };
  const seconds = r.durationMicros / 1e6;
  return {
    requests: r.requests,
    seconds,
    p50: Math.round(r.p50Micros / 100) / 10,
    p99: Math.round(r.p99Micros / 100) / 10,
    errors: r.errors,
    generatorCpuShare: Math.round((r.cpuTicks / CLOCK_TICKS / seconds) * 100) / 100,
  };
}
