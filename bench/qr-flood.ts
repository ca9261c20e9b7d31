// `npm run build && node --import tsx bench/qr-flood.ts [--seconds 5] [--rounds 3] [--server DIR] [--qr-limit N]`:
// do QR codes slow the redirects? One built server; redirects under load (wrk, 20 connections), quietly
// and while one anonymous address asks, on 4 connections back to back, for 2,048-pixel SVGs of
// 1,900-character URLs, each URL new (nothing cached): issue 37's flood, which got 956 images in 20 s
// and took redirects from 7,789/s to ~100/s. The order alternates round by round. Prints both, their
// ratio, and what the flood got. The read limit is at its default (1200 a minute), as in the issue;
// `--qr-limit N` sets RATE_LIMIT_QR (0: off, to measure the QR threads alone). `--server DIR`:
// another build (DIR/dist), e.g. main's, measured the same way.
import { prepareDatabase } from '../harness/hostile/fuzz-server.js';
import { settle } from '../harness/servers.js';
import {
  countByStatus,
  floodAgent,
  MAX_STRAGGLE_MS,
  machine,
  median,
  option,
  percentile,
  quietAndFlood,
  redirectLoad,
  redirectRatio,
  request,
  runFloodBench,
} from './flood.js';

const seconds = Number(option('--seconds') ?? 5);
const roundCount = Number(option('--rounds') ?? 3);
const qrLimit = option('--qr-limit');
const FLOOD_CONNECTIONS = 4;
const URL_LENGTH = 1900;

interface Measure {
  redirectsPerSecond: number;
  redirectP99: number;
  redirectErrors: number;
  generatorCpuShare: number;
  /** The server's CPU (all threads) over the measure's wall time: 1 is its whole core. Under 1 with redirects waiting, the machine was the limit. */
  serverCpuShare: number;
}

interface Answer {
  status: number;
  ms: number;
}

const setup = {
  name: 'qr-flood',
  prepare: (env: Record<string, string>) => prepareDatabase(env, ['qr']),
  // The limits: reads at their default (the flood stayed under it); RATE_LIMIT_QR as asked.
  env: { RATE_LIMIT_READ: '1200', ...(qrLimit === undefined ? {} : { RATE_LIMIT_QR: qrLimit }) },
};

runFloodBench(setup, async (server) => {
  const made = await request(server.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/plain')}`);
  const { code } = JSON.parse(made.body) as { code: string };
  if (!code) throw new Error(`no link made: ${made.body}`);

  const measure = async (): Promise<Measure> => {
    const cpuBefore = server.cpuSeconds();
    const redirects = await redirectLoad(server, `/${code}`, seconds);
    return {
      redirectsPerSecond: Math.round(redirects.requests / redirects.seconds),
      redirectP99: redirects.p99,
      redirectErrors: redirects.errors,
      generatorCpuShare: redirects.generatorCpuShare,
      serverCpuShare: Number(((server.cpuSeconds() - cpuBefore) / redirects.seconds).toFixed(2)),
    };
  };

  /** FLOOD_CONNECTIONS clients, each asking for the next new large code as soon as it has the last, until stopped. */
  const via = floodAgent(FLOOD_CONNECTIONS);
  const flood = (round: number) => {
    const answers: Answer[] = [];
    let stopped = false;
    let sent = 0;
    const client = async (connection: number) => {
      while (!stopped) {
        const head = `https://example.com/${round}-${connection}-${sent++}/`;
        const url = `/v2/qrcode?url=${encodeURIComponent(head.padEnd(URL_LENGTH, 'a'))}&width=2048&format=svg`;
        try {
          const answer = await request(server.port, 'GET', url, { via });
          answers.push({ status: answer.status, ms: answer.ms });
        } catch {
          return; // a connection cut when the server stops
        }
      }
    };
    const clients = Promise.all(Array.from({ length: FLOOD_CONNECTIONS }, (_, i) => client(i)));
    return {
      answers,
      stop: () => {
        stopped = true;
        return Promise.race([clients, new Promise((resolve) => setTimeout(resolve, MAX_STRAGGLE_MS))]);
      },
    };
  };

  const rounds: Array<{ quiet: Measure; flood: Measure; answers: Answer[] }> = [];
  for (let round = 1; round <= roundCount; round++) {
    // Quiet first in odd rounds, the flood first in even ones: a machine whose speed drifts during a
    // round (other work on it) then favours neither.
    await settle(server);
    const quietFirst = round % 2 === 1;
    const quietBefore = quietFirst ? await measure() : undefined;
    const attack = flood(round);
    const loaded = await measure();
    await attack.stop();
    if (!quietFirst) await settle(server);
    const quiet = quietBefore ?? (await measure());
    rounds.push({ quiet, flood: loaded, answers: attack.answers });
    console.error(`[qr-flood] round ${round}: ${JSON.stringify({ quiet, flood: loaded, floodAnswers: countByStatus(attack.answers) })}`);
  }
  const all = rounds.flatMap((r) => r.answers);
  const byStatus = countByStatus(all);
  const answerTimes = all.map((a) => a.ms);
  const result = {
    server: option('--server') ?? '.',
    rateLimitQr: qrLimit ?? 'default',
    seconds,
    rounds: roundCount,
    redirectRatio: redirectRatio(rounds),
    redirectRatios: rounds.map((r) => Number((r.flood.redirectsPerSecond / r.quiet.redirectsPerSecond).toFixed(3))),
    redirectsPerSecond: quietAndFlood(rounds, (m) => m.redirectsPerSecond),
    redirectP99Ms: quietAndFlood(rounds, (m) => m.redirectP99),
    generatorCpuShare: Math.max(...rounds.flatMap((r) => [r.quiet.generatorCpuShare, r.flood.generatorCpuShare])),
    serverCpuShare: quietAndFlood(rounds, (m) => m.serverCpuShare),
    flood: {
      answers: all.length,
      byStatus,
      imagesPerSecond: Number(((byStatus[200] ?? 0) / (roundCount * seconds)).toFixed(1)),
      answerMedianMs: Number(median(answerTimes).toFixed(1)),
      answerP99Ms: Number(percentile(answerTimes, 99).toFixed(1)),
    },
    machine: machine(),
  };
  console.log(JSON.stringify(result, null, 2));
});
