import fs from 'node:fs';
import type { FixedRateResult } from './fixed-rate.js';

export interface ScenarioResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** requests/s of each round */
  rounds: number[];
  /** Links made per second, for a scenario whose requests make many (bulk); its ratio uses this. */
  itemsPerSecond?: number;
  ratioToBaseline: number;
  /** CPU time of the server process (all its threads) per request answered, in µs. */
  cpuMicrosPerRequest: number;
  /** The load generator's CPU share of its core, the highest of the rounds (1: all of it). */
  generatorCpuShare: number;
  /** False when the generator was the limit of this scenario or of the baseline: its ratio measured the generator. */
  valid: boolean;
}

export interface BenchResults {
  mode: string;
  date: string;
  machine: { cpus: number; cpu: string; node: string };
  settings: Record<string, number>;
  /** The load generator and the share of its core above which a load is invalid. */
  generator: string;
  /** With --against: the other build every Brief scenario also ran on (its scenarios are named "… @ REF"). */
  against?: string;
  scenarios: ScenarioResult[];
  /** redirect cold (random keys over all links) at the big link count / at 1k links */
  redirectLinksRatio: number;
  rssBytes: number;
  rssMB: number;
  sqlite: Record<string, { bytes: number; links: number; bytesPerLink: number }>;
  preloadSeconds: number;
  /** CPU µs per request of each process tried for a server; the fastest was measured. */
  processProbes: Record<string, number[]>;
  /** Visits the measured Brief server turned away from analytics because its buffer was full (its own warnings). */
  analyticsDroppedVisits?: number;
  /** The analytics queries over a loaded workspace (bench/analytics-queries.ts), when run. */
  analyticsQueries?: { events: number; loadSeconds: number; databaseMB: number; topCountriesMs: number; clicksMs: number };
  /** The "analytics fixed-rate" scenarios (bench/fixed-rate.ts), one entry per distribution and rate, when run. */
  fixedRate?: FixedRateResult[];
}

export function markdownTable(r: BenchResults): string {
  const lines = [
    `Run: ${r.date}, mode ${r.mode}, ${r.settings.links} links, ${r.settings.connections} connections, ${r.settings.rounds} rounds × ${r.settings.seconds} s, ${r.machine.cpus} × ${r.machine.cpu}, Node ${r.machine.node}; load by ${r.generator}${r.against ? `; against ${r.against}` : ''}.`,
    '',
    '| scenario | requests/s | ratio to baseline | p50 ms | p99 ms | errors | server CPU µs/request | generator CPU | per round |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    ...r.scenarios.map(
      (s) =>
        `| ${s.name} | ${s.requestsPerSecond}${s.itemsPerSecond === undefined ? '' : ` (${s.itemsPerSecond} links/s)`} | ${s.valid ? s.ratioToBaseline.toFixed(2) : `invalid (${s.ratioToBaseline.toFixed(2)})`} | ${s.p50} | ${s.p99} | ${s.errors} | ${s.cpuMicrosPerRequest} | ${Math.round(s.generatorCpuShare * 100)}% | ${s.rounds.join(', ')} |`,
    ),
    ...againstLines(r),
    '',
    '| measure | value |',
    '|---|---:|',
    ...(r.redirectLinksRatio > 0
      ? [`| redirect cold at ${r.settings.links} links / at ${r.settings.smallLinks} links | ${r.redirectLinksRatio.toFixed(2)} |`]
      : []),
    `| server RSS with ${r.settings.links} links loaded (after the run) | ${r.rssMB} MB |`,
    `| SQLite bytes per link, preloaded (${r.sqlite.preloaded!.links} links) | ${r.sqlite.preloaded!.bytesPerLink} |`,
    `| SQLite bytes per link, after the run (${r.sqlite.afterRun!.links} links) | ${r.sqlite.afterRun!.bytesPerLink} |`,
  ];
  if (r.analyticsDroppedVisits !== undefined)
    lines.push(`| visits dropped from analytics, buffer full (ANALYTICS_BUFFER_MAX) | ${r.analyticsDroppedVisits} |`);
  const q = r.analyticsQueries;
  if (q) {
    lines.push(
      `| analytics: top-countries, 30 days, ${q.events} events (median of 5) | ${q.topCountriesMs} ms |`,
      `| analytics: clicks by day, 30 days, ${q.events} events (median of 5) | ${q.clicksMs} ms |`,
      `| analytics: SQLite file with ${q.events} events and their rollups | ${q.databaseMB} MB |`,
    );
  }
  for (const f of r.fixedRate ?? []) {
    const name = `analytics fixed-rate ${f.rate} visits/s × ${Math.round(f.seconds)} s to ${f.distribution === 'zipf' ? 'Zipf-ranked' : 'random'} links of ${r.settings.links}`;
    const limited = (f.valid ? '' : ', INVALID: the generator was the limit') + (f.held ? '' : ', rate not held');
    lines.push(
      `| ${name}: sent (${f.achievedRate}/s, generator ${Math.round(f.generatorCpuShare * 100)}%${limited}) / answered / counted / stored / dropped / errors | ${f.sent} / ${f.answered} / ${f.counted} / ${f.stored} / ${f.dropped} / ${f.errors} |`,
      `| ${name}: server CPU per stored visit, all threads until idle (main thread, writer thread; server's share of its core) | ${f.serverCpuMicrosPerVisit} µs (${f.mainCpuMicrosPerVisit}, ${f.writerCpuMicrosPerVisit}; ${Math.round(f.serverCoreShare * 100)}%) |`,
    );
  }
  return lines.join('\n');
}

/** With --against: each Brief scenario's figure on this build over the other's. */
function againstLines(r: BenchResults): string[] {
  if (!r.against) return [];
  const suffix = ` @ ${r.against}`;
  const pairs = r.scenarios.flatMap((s) => {
    const theirs = r.scenarios.find((o) => o.name === s.name + suffix);
    return theirs ? [{ s, theirs }] : [];
  });
  return [
    '',
    `| scenario | this build / ${r.against} (requests/s) | server CPU µs/request, this / that |`,
    '|---|---:|---:|',
    ...pairs.map(
      ({ s, theirs }) =>
        `| ${s.name} | ${(s.requestsPerSecond / theirs.requestsPerSecond).toFixed(3)}${s.valid && theirs.valid ? '' : ' (invalid)'} | ${s.cpuMicrosPerRequest} / ${theirs.cpuMicrosPerRequest} |`,
    ),
  ];
}

export function printTable(r: BenchResults): void {
  console.log(markdownTable(r));
}

const START = '<!-- results:start -->';
const END = '<!-- results:end -->';

/** Replaces the results section of docs/benchmarks.md (between the markers) with this run. */
export function writeDocsTable(file: string, r: BenchResults): void {
  if (!fs.existsSync(file)) return;
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return;
  fs.writeFileSync(file, `${text.slice(0, start + START.length)}\n${markdownTable(r)}\n${text.slice(end)}`);
}
