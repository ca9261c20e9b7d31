// `npm run build && node --import tsx bench/qr-flood.ts [--seconds 5] [--rounds 3] [--server DIR] [--qr-limit N]`:
// do QR codes slow the redirects? One built server; redirects under load (wrk, 20 connections), quietly
// and while one anonymous address asks, on 4 connections back to back, for 2,048-pixel SVGs of
// 1,900-character URLs, each URL new (nothing cached): issue 37's flood, which got 956 images in 20 s
// and took redirects from 7,789/s to ~100/s. The order alternates round by round. Prints both, their
// ratio, and what the flood got. The read limit is at its default (1200 a minute), as in the issue;
// `--qr-limit N` sets RATE_LIMIT_QR (0: off, to measure the QR threads alone). `--server DIR`:
// another build (DIR/dist), e.g. main's, measured the same way.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { prepareDatabase } from '../harness/hostile/fuzz-server.js';
import { pinSelf, settle, startBrief } from '../harness/servers.js';
import { ensureWrk, runLoad } from './load.js';

const DOMAIN = 'brief.bench';
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seconds = Number(option('--seconds') ?? 5);
const roundCount = Number(option('--rounds') ?? 3);
const qrLimit = option('--qr-limit');
const FLOOD_CONNECTIONS = 4;
const REDIRECT_CONNECTIONS = 20;
const URL_LENGTH = 1900;
/** How long a round waits for the flood's last answers. */
const MAX_STRAGGLE_MS = 15_000;

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

const floodAgent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONNECTIONS });
function request(port: number, url: string, via?: http.Agent): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: url, agent: via, headers: { host: DOMAIN } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end();
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

async function main(): Promise<void> {
  ensureWrk();
  pinSelf();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-qr-flood-'));
  const dbFile = path.join(dir, 'brief.db');
  const env = { DATABASE_URL: `sqlite:${dbFile}`, BASE_URL: `http://${DOMAIN}` };
  await prepareDatabase(env, ['qr']);
  const server = await startBrief('brief', {
    dbFile,
    domain: DOMAIN,
    root: option('--server'),
    // The limits: reads at their default (the flood stayed under it); RATE_LIMIT_QR as asked.
    env: { RATE_LIMIT_READ: '1200', ...(qrLimit === undefined ? {} : { RATE_LIMIT_QR: qrLimit }) },
  });
  try {
    const made = await request(server.port, `/v2/shorten?url=${encodeURIComponent('https://example.com/plain')}`);
    const { code } = JSON.parse(made.body) as { code: string };
    if (!code) throw new Error(`no link made: ${made.body}`);

    const measure = async (): Promise<Measure> => {
      const cpuBefore = server.cpuSeconds();
      const redirects = await runLoad({
        port: server.port,
        host: DOMAIN,
        request: { kind: 'fixed', path: `/${code}` },
        connections: REDIRECT_CONNECTIONS,
        seconds,
      });
      return {
        redirectsPerSecond: Math.round(redirects.requests / redirects.seconds),
        redirectP99: redirects.p99,
        redirectErrors: redirects.errors,
        generatorCpuShare: redirects.generatorCpuShare,
        serverCpuShare: Number(((server.cpuSeconds() - cpuBefore) / redirects.seconds).toFixed(2)),
      };
    };

    /** FLOOD_CONNECTIONS clients, each asking for the next new large code as soon as it has the last, until stopped. */
    const flood = (round: number) => {
      const answers: Answer[] = [];
      let stopped = false;
      let sent = 0;
      const client = async (connection: number) => {
        while (!stopped) {
          const head = `https://example.com/${round}-${connection}-${sent++}/`;
          const url = `/v2/qrcode?url=${encodeURIComponent(head.padEnd(URL_LENGTH, 'a'))}&width=2048&format=svg`;
          try {
            const answer = await request(server.port, url, floodAgent);
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
      const byStatus: Record<number, number> = {};
      for (const answer of attack.answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
      console.error(`[qr-flood] round ${round}: ${JSON.stringify({ quiet, flood: loaded, floodAnswers: byStatus })}`);
    }
    const median = (values: number[]) => percentile(values, 50);
    const all = rounds.flatMap((r) => r.answers);
    const byStatus: Record<number, number> = {};
    for (const answer of all) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    const result = {
      server: option('--server') ?? '.',
      rateLimitQr: qrLimit ?? 'default',
      seconds,
      rounds: roundCount,
      redirectRatio: Number(median(rounds.map((r) => r.flood.redirectsPerSecond / r.quiet.redirectsPerSecond)).toFixed(3)),
      redirectRatios: rounds.map((r) => Number((r.flood.redirectsPerSecond / r.quiet.redirectsPerSecond).toFixed(3))),
      redirectsPerSecond: {
        quiet: median(rounds.map((r) => r.quiet.redirectsPerSecond)),
        flood: median(rounds.map((r) => r.flood.redirectsPerSecond)),
      },
      redirectP99Ms: { quiet: median(rounds.map((r) => r.quiet.redirectP99)), flood: median(rounds.map((r) => r.flood.redirectP99)) },
      generatorCpuShare: Math.max(...rounds.flatMap((r) => [r.quiet.generatorCpuShare, r.flood.generatorCpuShare])),
      serverCpuShare: { quiet: median(rounds.map((r) => r.quiet.serverCpuShare)), flood: median(rounds.map((r) => r.flood.serverCpuShare)) },
      flood: {
        answers: all.length,
        byStatus,
        imagesPerSecond: Number(((byStatus[200] ?? 0) / (roundCount * seconds)).toFixed(1)),
        answerMedianMs: Number(median(all.map((a) => a.ms)).toFixed(1)),
        answerP99Ms: Number(
          percentile(
            all.map((a) => a.ms),
            99,
          ).toFixed(1),
        ),
      },
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))) },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await server.stop();
    floodAgent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
