// `npm run bench [-- --quick | --smoke] [--out FILE] [--profile] [--against REF] [--only "analytics fixed-rate,analytics fixed-rate zipf" --rates 2000,10000 --fixed-seconds 60 --fixed-connections 100]`: see docs/benchmarks.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { positiveWholes } from '../harness/cli-numbers.js';
import { PACED_CONNECTIONS } from '../harness/paced-load.js';
import { droppedVisits, pinSelf, type RunningServer, settle, startBaseline, startBrief, startFastest } from '../harness/servers.js';
import { buildOther, type OtherBuild } from './against.js';
import { type AnalyticsQueryResult, benchAnalyticsQueries } from './analytics-queries.js';
import { type Distribution, FIXED_RATE_SCENARIOS, type FixedRateResult, fixedRate } from './fixed-rate.js';
import { linkKey } from './link-keys.js';
import { ensureWrk, GENERATOR_LIMIT, type LoadResult, runLoad } from './load.js';
import { bytesPerLink, preloadLinks } from './preload.js';
import { type BenchResults, printTable, type ScenarioResult, writeDocsTable } from './report.js';
import { DOMAIN, SCENARIOS, type Scenario, type ServerName, WEBHOOK_SERVERS } from './scenarios.js';
import { type HookReceiver, hookedDatabase } from './webhook-servers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

const mode = flag('--smoke') ? 'smoke' : flag('--quick') ? 'quick' : 'full';
const settings = {
  full: { links: 1_000_000, rounds: 3, seconds: 5, warmup: 2, copies: 3, probeSeconds: 2, events: 10_000_000, fixedSeconds: 60 },
  quick: { links: 20_000, rounds: 2, seconds: 2, warmup: 1, copies: 1, probeSeconds: 1, events: 500_000, fixedSeconds: 10 },
  smoke: { links: 1_000, rounds: 1, seconds: 1, warmup: 0, copies: 1, probeSeconds: 1, events: 10_000, fixedSeconds: 2 },
}[mode];
if (option('--links')) settings.links = Number(option('--links'));
if (option('--seconds')) settings.seconds = Number(option('--seconds'));
if (option('--rounds')) settings.rounds = Number(option('--rounds'));
if (option('--copies')) settings.copies = Number(option('--copies'));
if (option('--events')) settings.events = Number(option('--events'));
// "analytics fixed-rate" (random links) and "analytics fixed-rate zipf": --rates 2000,10000 visits a
// second, each for --fixed-seconds, with at most --fixed-connections requests in flight.
if (option('--fixed-seconds') !== undefined) settings.fixedSeconds = positiveWholes('--fixed-seconds', option('--fixed-seconds'))[0]!;
const fixedRates = positiveWholes('--rates', option('--rates') ?? (mode === 'smoke' ? '200' : '2000,10000'));
const fixedConnections =
  option('--fixed-connections') !== undefined ? positiveWholes('--fixed-connections', option('--fixed-connections'))[0]! : PACED_CONNECTIONS;
// --only "redirect cold,shorten new": run just these (and the baseline), e.g. to profile one path.
const only = option('--only')?.split(',');
const scenarioList = SCENARIOS.filter((s) => !only || s.name === 'baseline' || only.includes(s.name));
// --env CLICK_FLUSH_MS=600000,CACHE_SIZE=0: extra environment for the Brief servers (experiments).
const serverEnv = Object.fromEntries(
  (option('--env') ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);
// --server DIR: benchmark another build of Brief (DIR/dist/main.js), e.g. an older commit.
const serverDir = option('--server');
// --against REF: also build REF and run every Brief scenario on both builds, alternating.
const againstRef = option('--against');
// Only a default full run rewrites docs/benchmarks.md (or any run given --docs).
const customized = [
  '--only',
  '--links',
  '--rounds',
  '--seconds',
  '--env',
  '--server',
  '--against',
  '--copies',
  '--events',
  '--rates',
  '--fixed-seconds',
  '--fixed-connections',
].some((name) => option(name) !== undefined);
const SMALL_LINKS = 1_000;
const CONNECTIONS = 50;
const out = option('--out') ?? path.join(ROOT, 'bench/results/latest.json');
const profileDir = flag('--profile') ? path.join(ROOT, 'bench/profiles') : undefined;

/** A server key: the scenario's server, on this build or (`@other`) on the --against build. */
type ServerKey = ServerName | `${ServerName}@other`;

async function main(): Promise<void> {
  ensureWrk();
  pinSelf();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bench-'));
  const other: OtherBuild | undefined = againstRef ? buildOther(againstRef) : undefined;
  if (other) log(`against ${other.label}, built in ${other.dir}`);
  const bigDb = path.join(work, 'links-big.db');
  const smallDb = path.join(work, 'links-1k.db');
  const started = Date.now();
  await preloadLinks(bigDb, DOMAIN, settings.links);
  await preloadLinks(smallDb, DOMAIN, SMALL_LINKS);
  // The other build gets databases of its own, made by its own migrations.
  const otherDb = { big: path.join(work, 'other-big.db'), small: path.join(work, 'other-1k.db') };
  other?.preload(otherDb.big, DOMAIN, settings.links);
  other?.preload(otherDb.small, DOMAIN, SMALL_LINKS);
  // The fixed-rate scenario's own copy of the links, with no visits yet: it counts the visits stored.
  const fixedDb = path.join(work, 'links-fixed-rate.db');
  const fixedDistributions = (['link', 'zipf'] as Distribution[]).filter(
    (d) => (!only || only.includes(FIXED_RATE_SCENARIOS[d])) && serverEnv.ANALYTICS !== 'off',
  );
  const runFixedRate = fixedDistributions.length > 0;
  if (runFixedRate) fs.copyFileSync(bigDb, fixedDb);
  const preloadSeconds = (Date.now() - started) / 1000;
  const preloaded = bytesPerLink(bigDb);
  log(`preloaded ${settings.links} links in ${preloadSeconds.toFixed(1)} s (${preloaded.bytesPerLink} bytes/link)`);

  if (profileDir) fs.mkdirSync(profileDir, { recursive: true });
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const linksOn: Record<ServerName, number> = {
    baseline: 1,
    brief: settings.links,
    brief1k: SMALL_LINKS,
    hooked: settings.links,
    hanging: settings.links,
  };
  // Each server is the fastest of a few processes (see startFastest); one when profiling.
  const copies = profileDir ? 1 : settings.copies;
  const probe = (name: ServerName) => async (server: RunningServer) => {
    const spec = { port: server.port, host: DOMAIN, request: SCENARIOS.find((s) => s.server === name)!.request(1), connections: CONNECTIONS };
    if (name !== 'baseline') spec.request = { kind: 'fixed', path: `/${linkKey(0)}` };
    await runLoad({ ...spec, seconds: 1 }); // warm-up: JIT
    const cpuBefore = server.cpuSeconds();
    const { requests } = await runLoad({ ...spec, seconds: settings.probeSeconds });
    return microsPerRequest(server.cpuSeconds() - cpuBefore, requests);
  };
  const picked: Partial<Record<ServerKey, { server: RunningServer; probes: number[] }>> = {
    baseline: await startFastest(copies, () => startBaseline(), probe('baseline')),
    brief: await startFastest(
      copies,
      () => startBrief('brief', { dbFile: bigDb, domain: DOMAIN, nodeArgs, env: serverEnv, root: serverDir }),
      probe('brief'),
    ),
    brief1k: await startFastest(
      copies,
      () => startBrief('brief1k', { dbFile: smallDb, domain: DOMAIN, env: serverEnv, root: serverDir }),
      probe('brief1k'),
    ),
  };
  // The webhook scenarios' servers, only when one of their scenarios runs.
  const receivers: Partial<Record<keyof typeof WEBHOOK_SERVERS, HookReceiver>> = {};
  for (const [name, hang] of Object.entries(WEBHOOK_SERVERS) as Array<[keyof typeof WEBHOOK_SERVERS, boolean]>) {
    if (!scenarioList.some((s) => s.server === name)) continue;
    const dbFile = path.join(work, `links-${name}.db`);
    receivers[name] = await hookedDatabase(bigDb, dbFile, hang);
    const env = { ...serverEnv, WEBHOOK_ALLOW_HOSTS: '127.0.0.1' };
    picked[name] = await startFastest(copies, () => startBrief(name, { dbFile, domain: DOMAIN, env, root: serverDir }), probe(name));
  }
  if (other) {
    picked['brief@other'] = await startFastest(
      copies,
      // Profiled too with --profile: the two builds' profiles side by side tell where a difference goes.
      () => startBrief('brief@other', { dbFile: otherDb.big, domain: DOMAIN, nodeArgs, env: serverEnv, root: other.dir }),
      probe('brief'),
    );
    picked['brief1k@other'] = await startFastest(
      copies,
      () => startBrief('brief1k@other', { dbFile: otherDb.small, domain: DOMAIN, env: serverEnv, root: other.dir }),
      probe('brief1k'),
    );
  }
  const servers = Object.fromEntries(Object.entries(picked).map(([key, p]) => [key, p.server])) as Partial<Record<ServerKey, RunningServer>>;
  for (const [name, { probes }] of Object.entries(picked)) {
    if (probes.length > 0) log(`${name}: fastest of ${probes.length} processes (CPU µs/request: ${probes.join(', ')})`);
  }

  // What is measured: each scenario on its server, and with --against each Brief scenario on the other build too.
  const runs: Measured[] = scenarioList.flatMap((s) => {
    const own = { scenario: s, name: s.name, server: s.server as ServerKey, rounds: [] };
    return other && (s.server === 'brief' || s.server === 'brief1k')
      ? [own, { scenario: s, name: `${s.name} @ ${other.label}`, server: `${s.server}@other` as ServerKey, rounds: [] }]
      : [own];
  });
  /** One load of a scenario on a server. */
  const load = (m: Measured, seconds: number) =>
    runLoad({
      port: servers[m.server]!.port,
      host: DOMAIN,
      request: m.scenario.request(linksOn[m.scenario.server]),
      connections: CONNECTIONS,
      seconds,
    });
  let rss = 0;
  try {
    if (settings.warmup > 0) {
      for (const m of runs) await load(m, settings.warmup);
      for (const server of Object.values(servers)) await settle(server);
    }
    // Alternating rounds: every scenario once per round, so drifting noise hits all alike; with
    // --against the two builds take turns going first.
    for (let round = 1; round <= settings.rounds; round++) {
      const order = other && round % 2 === 0 ? swapPairs(runs) : runs;
      for (const m of order) {
        const server = servers[m.server]!;
        const cpuBefore = server.cpuSeconds();
        const result = await load(m, settings.seconds);
        // The CPU counts the work the load left behind too (analytics writes), done before the next load begins.
        const settled = await settle(server);
        const cpuSeconds = server.cpuSeconds() - cpuBefore;
        m.rounds.push({ ...result, cpuSeconds });
        const cpuPerRequest = microsPerRequest(cpuSeconds, result.requests).toFixed(1);
        const limited = result.generatorCpuShare > GENERATOR_LIMIT ? ' (INVALID: the generator was the limit)' : '';
        log(
          `round ${round} ${m.name}: ${Math.round(result.requests / result.seconds)} req/s, p99 ${result.p99} ms, errors ${result.errors}, server CPU ${cpuPerRequest} µs/request, generator ${Math.round(result.generatorCpuShare * 100)}% of its core${limited} (idle again after ${settled.toFixed(1)} s)`,
        );
      }
    }
    rss = servers.brief!.rssBytes();
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    for (const [name, receiver] of Object.entries(receivers)) {
      log(`${name}: ${receiver.received()} webhook deliveries reached its receiver`);
      await receiver.close();
    }
    other?.remove();
  }
  const stored = bytesPerLink(bigDb);
  // Fixed rate, one fresh server per rate and distribution (no other load meanwhile): `--only "analytics
  // fixed-rate"` runs just this (and the baseline).
  const fixedRateResults: FixedRateResult[] = [];
  for (const distribution of fixedDistributions) {
    for (const rate of fixedRates) {
      const f = await fixedRate(() => startBrief('brief fixed-rate', { dbFile: fixedDb, domain: DOMAIN, env: serverEnv, root: serverDir }), fixedDb, {
        host: DOMAIN,
        links: settings.links,
        distribution,
        rate,
        seconds: settings.fixedSeconds,
        connections: fixedConnections,
      });
      fixedRateResults.push(f);
      const limited = (f.valid ? '' : ' (INVALID: the generator was the limit)') + (f.held ? '' : ', rate NOT held');
      log(
        `${FIXED_RATE_SCENARIOS[distribution]} ${rate}/s for ${f.seconds.toFixed(1)} s: sent ${f.sent} (${f.achievedRate}/s, ${f.late} late), answered ${f.answered}, errors ${f.errors}, p99 ${f.p99} ms, counted ${f.counted}, stored ${f.stored}, dropped ${f.dropped}, server CPU ${f.serverCpuMicrosPerVisit} µs/stored visit (main thread ${f.mainCpuMicrosPerVisit}, writer ${f.writerCpuMicrosPerVisit}), server ${Math.round(f.serverCoreShare * 100)}% of its core, generator ${Math.round(f.generatorCpuShare * 100)}% of its core${limited} (idle again after ${f.settleSeconds} s)`,
      );
    }
  }
  // Analytics queries, with the servers stopped: `--only "analytics queries"` runs just this (and the baseline).
  let analyticsQueries: AnalyticsQueryResult | undefined;
  if (!only || only.includes('analytics queries')) {
    analyticsQueries = await benchAnalyticsQueries(work, settings.events);
    log(
      `analytics queries over ${analyticsQueries.events} events: top-countries ${analyticsQueries.topCountriesMs} ms, clicks ${analyticsQueries.clicksMs} ms`,
    );
  }
  fs.rmSync(work, { recursive: true, force: true });

  const scenarios: ScenarioResult[] = runs.map((m) => aggregate(m.name, m.rounds, m.scenario.itemsPerRequest));
  const baselineResult = scenarios[0]!;
  const baseline = baselineResult.requestsPerSecond;
  // A bulk scenario is compared by links made per second against the baseline's requests per second;
  // a ratio is invalid when the generator limited either side of it.
  for (const s of scenarios) {
    s.ratioToBaseline = round((s.itemsPerSecond ?? s.requestsPerSecond) / baseline, 3);
    s.valid = s.generatorCpuShare <= GENERATOR_LIMIT && baselineResult.generatorCpuShare <= GENERATOR_LIMIT;
  }
  const byName = (name: string) => scenarios.find((s) => s.name === name);
  const cold = byName('redirect cold');
  const cold1k = byName('redirect cold 1k');
  const results: BenchResults = {
    mode,
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', node: process.version },
    settings: { ...settings, connections: CONNECTIONS, smallLinks: SMALL_LINKS },
    generator: `wrk, 1 thread, invalid above ${GENERATOR_LIMIT * 100}% of its core`,
    ...(other && { against: other.label }),
    scenarios,
    redirectLinksRatio: cold && cold1k ? round(cold.requestsPerSecond / cold1k.requestsPerSecond, 3) : 0,
    rssBytes: rss,
    rssMB: round(rss / 1048576, 1),
    analyticsDroppedVisits: serverEnv.ANALYTICS !== 'off' ? droppedVisits(servers.brief!) : undefined,
    sqlite: { preloaded, afterRun: stored },
    preloadSeconds,
    processProbes: Object.fromEntries(Object.entries(picked).map(([name, { probes }]) => [name, probes])),
    analyticsQueries,
    ...(runFixedRate && { fixedRate: fixedRateResults }),
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  printTable(results);
  if ((mode === 'full' && !customized) || flag('--docs')) writeDocsTable(path.join(ROOT, 'docs/benchmarks.md'), results);
  log(`wrote ${out} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** A scenario measured on one server, with its rounds. */
interface Measured {
  scenario: Scenario;
  name: string;
  server: ServerKey;
  rounds: RoundResult[];
}

/** The same list with each scenario's two builds in the other order. */
function swapPairs(runs: Measured[]): Measured[] {
  const swapped: Measured[] = [];
  for (let i = 0; i < runs.length; i++) {
    const next = runs[i + 1];
    if (next && next.scenario === runs[i]!.scenario) {
      swapped.push(next, runs[i]!);
      i++;
    } else swapped.push(runs[i]!);
  }
  return swapped;
}

/** One round of one scenario, with the CPU time its server used meanwhile. */
type RoundResult = LoadResult & { cpuSeconds: number };

function aggregate(name: string, results: RoundResult[], itemsPerRequest?: number): ScenarioResult {
  const requests = results.reduce((n, r) => n + r.requests, 0);
  const seconds = results.reduce((n, r) => n + r.seconds, 0);
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    name,
    requestsPerSecond: Math.round(requests / seconds),
    ...(itemsPerRequest && { itemsPerSecond: Math.round((requests * itemsPerRequest) / seconds) }),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    errors: results.reduce((n, r) => n + r.errors, 0),
    rounds: results.map((r) => Math.round(r.requests / r.seconds)),
    generatorCpuShare: Math.max(...results.map((r) => r.generatorCpuShare)),
    valid: true,
    // Less noisy than requests/s when the load generator, not the server, is the limit.
    cpuMicrosPerRequest: round(
      microsPerRequest(
        results.reduce((n, r) => n + r.cpuSeconds, 0),
        requests,
      ),
      1,
    ),
    ratioToBaseline: 0,
  };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits));
/** Server CPU per request answered, in µs. */
const microsPerRequest = (cpuSeconds: number, requests: number) => (cpuSeconds * 1e6) / Math.max(requests, 1);
const log = (line: string) => console.error(`[bench] ${line}`);

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
