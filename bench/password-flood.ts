// `npm run build && node --import tsx bench/password-flood.ts [--seconds 4] [--rounds 3] [--server DIR]`: do wrong
// passwords slow the rest? One built server; redirects under load and the web app's script fetched one
// at a time, first quietly, then while 400 wrong passwords arrive on a protected link, evenly spread
// over the same time (the password limits off, as if from as many addresses as it takes: the
// flood this guards against was 400 in 36 s). Prints both and their ratios. `--server DIR`: another build (DIR/dist).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { prepareDatabase } from '../harness/hostile/fuzz-server.js';
import { pinSelf, startBrief } from '../harness/servers.js';
import { ensureWrk, runLoad } from './load.js';

const DOMAIN = 'brief.bench';
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seconds = Number(option('--seconds') ?? 4);
const roundCount = Number(option('--rounds') ?? 3);
/** How long a round waits for the flood's last answers before it counts them unanswered. */
const MAX_STRAGGLE_MS = 15_000;
const WRONG_PASSWORDS = 400;
const REDIRECT_CONNECTIONS = 20;

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
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-password-flood-'));
  const dbFile = path.join(dir, 'brief.db');
  const env = { DATABASE_URL: `sqlite:${dbFile}`, BASE_URL: `http://${DOMAIN}` };
  const [token] = (await prepareDatabase(env, ['flood'])) as [string];
  const server = await startBrief('brief', {
    dbFile,
    domain: DOMAIN,
    root: option('--server'),
    env: { RATE_LIMIT_PASSWORD: '0', RATE_LIMIT_PASSWORD_ADDRESS: '0', RATE_LIMIT_TOKEN: '0' },
  });
  try {
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const plain = JSON.parse((await request(server.port, 'GET', `/v2/shorten?url=${encodeURIComponent('https://example.com/plain')}`, auth)).body);
    const made = await request(
      server.port,
      'POST',
      '/v3/shorten/bulk',
      auth,
      JSON.stringify([{ url: 'https://example.com/secret', password: 'right horse' }]),
    );
    const { slug } = JSON.parse(made.body)[0] as { slug: string };
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

    /** 400 wrong passwords spread evenly over `seconds`, each on a connection of its own while it waits. */
    const wrongPasswords = (round: number) => {
      const answers: Answer[] = [];
      const sent: Array<Promise<void>> = [];
      const started = Date.now();
      const timer = setInterval(() => {
        // As many as are due by now, so a late tick does not thin the flood.
        const due = Math.min(WRONG_PASSWORDS, Math.ceil(((Date.now() - started) / (seconds * 1000)) * WRONG_PASSWORDS));
        while (sent.length < due) {
          const body = `password=wrong-${round}-${sent.length}`;
          sent.push(
            request(server.port, 'POST', `/${slug}`, form, body, floodAgent).then(
              (answer) => void answers.push(answer),
              () => {}, // a connection cut when the server stops: counted unanswered
            ),
          );
        }
        if (sent.length >= WRONG_PASSWORDS) clearInterval(timer);
      }, 5);
      return answers;
    };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    // Quiet, then under the flood, round after round; the flood's stragglers are waited for (at most
    // MAX_STRAGGLE_MS) before the next quiet measure, and those still unanswered are counted.
    const rounds: Array<{ quiet: Measure; flood: Measure; answers: Answer[] }> = [];
    for (let round = 1; round <= roundCount; round++) {
      const quiet = await measure();
      const answers = wrongPasswords(round);
      const flood = await measure();
      const until = Date.now() + MAX_STRAGGLE_MS;
      while (answers.length < WRONG_PASSWORDS && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
      rounds.push({ quiet, flood, answers });
      console.error(`[password-flood] round ${round}: ${JSON.stringify({ quiet, flood, answered: answers.length })}`);
    }
    const median = (values: number[]) => percentile(values, 50);
    const all = rounds.flatMap((r) => r.answers);
    const byStatus: Record<number, number> = {};
    for (const answer of all) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    const result = {
      server: option('--server') ?? '.',
      seconds,
      rounds: roundCount,
      redirectRatio: Number(median(rounds.map((r) => r.flood.redirectsPerSecond / r.quiet.redirectsPerSecond)).toFixed(3)),
      redirectP99Ms: { quiet: median(rounds.map((r) => r.quiet.redirectP99)), flood: median(rounds.map((r) => r.flood.redirectP99)) },
      scriptMedianMs: { quiet: median(rounds.map((r) => r.quiet.assetMedianMs)), flood: median(rounds.map((r) => r.flood.assetMedianMs)) },
      scriptP99Ms: { quiet: median(rounds.map((r) => r.quiet.assetP99Ms)), flood: median(rounds.map((r) => r.flood.assetP99Ms)) },
      wrongPasswords: {
        sent: WRONG_PASSWORDS * roundCount,
        byStatus,
        unanswered: WRONG_PASSWORDS * roundCount - all.length,
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
