// `npm run build && node --import tsx bench/sign-in-flood.ts [--seconds 4] [--rounds 3] [--server DIR]`: do
// wrong sign-in passwords slow the redirects? (issue 37, item 4: 24 connections from 12 addresses took
// redirects from 3,748/s to 667/s.) One built server; redirects under load and the web app's script fetched
// one at a time, first quietly, then while 24 connections send wrong passwords to POST /auth/sign-in as fast
// as they are answered, from 12 addresses (X-Forwarded-For, TRUST_PROXY=loopback), side by side in each
// round. The sign-in limits are off, so that every attempt asks for a hash (the worst case: as from as many
// addresses and emails as it takes); `--with-limits` keeps them at their defaults. Prints both and their
// ratios. `--server DIR`: another build (DIR/dist).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pinSelf, startBrief } from '../harness/servers.js';
import { ensureWrk, runLoad } from './load.js';

const DOMAIN = 'brief.bench';
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seconds = Number(option('--seconds') ?? 4);
const roundCount = Number(option('--rounds') ?? 3);
/** How long a round waits for the flood's last answers before it counts them unanswered. */
const MAX_STRAGGLE_MS = 15_000;
const FLOOD_CONNECTIONS = 24;
const FLOOD_ADDRESSES = 12;
const REDIRECT_CONNECTIONS = 20;
const EMAIL = 'ada@brief.bench';

interface Measure {
  redirectsPerSecond: number;
  redirectP99: number;
  redirectErrors: number;
  assetMedianMs: number;
  assetP99Ms: number;
}

interface Answer {
  status: number;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true });
/** The wrong passwords: as many connections as are waiting for an answer. */
const floodAgent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
function request(port: number, method: string, url: string, headers: Record<string, string> = {}, body?: string, via = agent): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, agent: via, headers: { host: DOMAIN, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

async function main(): Promise<void> {
  ensureWrk();
  pinSelf();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-sign-in-flood-'));
  const dbFile = path.join(dir, 'brief.db');
  const env = { DATABASE_URL: `sqlite:${dbFile}`, BASE_URL: `http://${DOMAIN}` };
  const token = prepare(env);
  const server = await startBrief('brief', {
    dbFile,
    domain: DOMAIN,
    root: option('--server'),
    // --with-limits: the sign-in limits at their defaults (most attempts are then refused with 429, no hash).
    env: {
      ...(args.includes('--with-limits') ? {} : { RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_SIGN_IN_ADDRESS: '0' }),
      RATE_LIMIT_TOKEN: '0',
      TRUST_PROXY: 'loopback',
    },
  });
  try {
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const plain = JSON.parse((await request(server.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/plain')}`, auth)).body);
    const page = await request(server.port, 'GET', '/');
    const script = /<script[^>]*src="([^"]+)"/.exec(page.body)?.[1];
    if (!script) throw new Error(`no script in the web app's page: ${page.body.slice(0, 200)}`);

    /** The redirect load and the script fetched one at a time, for `seconds`. */
    const measure = async (): Promise<Measure> => {
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
      const redirects = await runLoad({
        port: server.port,
        host: DOMAIN,
        request: { kind: 'fixed', path: `/${plain.code}` },
        connections: REDIRECT_CONNECTIONS,
        seconds,
      });
      // A fetch still waiting MAX_STRAGGLE_MS after the load counts with the time it has waited so far.
      await Promise.race([assets, new Promise((resolve) => setTimeout(resolve, MAX_STRAGGLE_MS))]);
      if (fetching !== 0) assetTimes.push(performance.now() - fetching);
      const measured: Measure = {
        redirectsPerSecond: Math.round(redirects.requests / redirects.seconds),
        redirectP99: redirects.p99,
        redirectErrors: redirects.errors,
        assetMedianMs: Number(percentile(assetTimes, 50).toFixed(1)),
        assetP99Ms: Number(percentile(assetTimes, 99).toFixed(1)),
      };
      return measured;
    };

    /** 24 connections sending wrong passwords back to back, from 12 addresses, until `stop` is called. */
    const wrongPasswords = (round: number) => {
      const answers: Answer[] = [];
      let stopped = false;
      const loops = Array.from({ length: FLOOD_CONNECTIONS }, async (_, connection) => {
        const from = { 'x-forwarded-for': `198.51.100.${(connection % FLOOD_ADDRESSES) + 1}`, origin: `http://${DOMAIN}` };
        const headers = { ...from, 'content-type': 'application/json' };
        for (let n = 0; !stopped; n++) {
          const body = JSON.stringify({ email: EMAIL, password: `wrong-${round}-${connection}-${n}` });
          const answer = await request(server.port, 'POST', '/auth/sign-in', headers, body, floodAgent).catch(() => undefined);
          if (answer === undefined) return; // a connection cut when the server stops
          answers.push(answer);
        }
      });
      return {
        answers,
        stop: async () => {
          stopped = true;
          await Promise.race([Promise.all(loops), new Promise((resolve) => setTimeout(resolve, MAX_STRAGGLE_MS))]);
        },
      };
    };

    // Quiet, then under the flood, round after round; the flood stops after its measure and its last
    // answers are waited for (at most MAX_STRAGGLE_MS) before the next quiet measure.
    const rounds: Array<{ quiet: Measure; flood: Measure; answers: Answer[] }> = [];
    for (let round = 1; round <= roundCount; round++) {
      const quiet = await measure();
      const { answers, stop } = wrongPasswords(round);
      const flood = await measure();
      await stop();
      rounds.push({ quiet, flood, answers });
      console.error(`[sign-in-flood] round ${round}: ${JSON.stringify({ quiet, flood, answered: answers.length })}`);
    }
    const median = (values: number[]) => percentile(values, 50);
    const all = rounds.flatMap((r) => r.answers);
    const byStatus: Record<number, number> = {};
    for (const answer of all) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    const result = {
      server: option('--server') ?? '.',
      signInLimits: args.includes('--with-limits') ? 'defaults' : 'off',
      seconds,
      rounds: roundCount,
      redirectRatio: Number(median(rounds.map((r) => r.flood.redirectsPerSecond / r.quiet.redirectsPerSecond)).toFixed(3)),
      redirectP99Ms: { quiet: median(rounds.map((r) => r.quiet.redirectP99)), flood: median(rounds.map((r) => r.flood.redirectP99)) },
      scriptMedianMs: { quiet: median(rounds.map((r) => r.quiet.assetMedianMs)), flood: median(rounds.map((r) => r.flood.assetMedianMs)) },
      scriptP99Ms: { quiet: median(rounds.map((r) => r.quiet.assetP99Ms)), flood: median(rounds.map((r) => r.flood.assetP99Ms)) },
      wrongPasswords: {
        connections: FLOOD_CONNECTIONS,
        addresses: FLOOD_ADDRESSES,
        answered: all.length,
        byStatus,
        answerMedianMs: Math.round(median(all.map((a) => a.ms))),
      },
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))) },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await server.stop();
    agent.destroy();
    floodAgent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A workspace with a person who signs in with a password, and a token (for the redirect's link): made by the
 * CLI of the build under test, so that its own migrations make the database.
 */
function prepare(env: Record<string, string>): string {
  const main = path.join(path.resolve(option('--server') ?? '.'), 'dist/main.js');
  const run = (args: string[], input?: string) =>
    execFileSync(process.execPath, [main, ...args], { env: { ...process.env, ...env, LOG_LEVEL: 'warn' }, input, encoding: 'utf8' });
  run(['user', 'create', EMAIL, '--workspace', 'flood', '--password-stdin'], 'the right password');
  return run(['token', 'create', 'flood']).trim().split('\n').at(-1)!;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
