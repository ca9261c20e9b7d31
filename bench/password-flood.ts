// `npm run build && node --import tsx bench/password-flood.ts [--seconds N] [--server DIR]`: do wrong
// passwords slow the rest? One built server; redirects under load and the web app's script fetched one
// at a time, first quietly, then while 400 wrong passwords arrive on a protected link, evenly spread
// over the same time (the password limits off, as if from as many addresses as it takes: issue 31's
// attack was 400 in 36 s). Prints both and their ratios. `--server DIR`: another build (DIR/dist).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { prepareDatabase } from './hostile/fuzz-server.js';
import { ensureWrk, runLoad } from './load.js';
import { pinSelf, startBrief } from './servers.js';

const DOMAIN = 'brief.bench';
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const seconds = Number(option('--seconds') ?? 5);
const WRONG_PASSWORDS = 400;
const FLOOD_CONNECTIONS = 50;
const REDIRECT_CONNECTIONS = 20;

interface Answer {
  status: number;
  body: string;
  ms: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONNECTIONS + 2 });
function request(port: number, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: url, agent, headers: { host: DOMAIN, ...headers } }, (res) => {
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
    const measure = async () => {
      const assetTimes: number[] = [];
      const until = Date.now() + seconds * 1000;
      const assets = (async () => {
        while (Date.now() < until) assetTimes.push((await request(server.port, 'GET', script)).ms);
      })();
      const redirects = await runLoad({
        port: server.port,
        host: DOMAIN,
        request: { kind: 'fixed', path: `/${plain.code}` },
        connections: REDIRECT_CONNECTIONS,
        seconds,
      });
      await assets;
      return {
        redirectsPerSecond: Math.round(redirects.requests / redirects.seconds),
        redirectP99: redirects.p99,
        redirectErrors: redirects.errors,
        assetMedianMs: Number(percentile(assetTimes, 50).toFixed(1)),
        assetP99Ms: Number(percentile(assetTimes, 99).toFixed(1)),
      };
    };

    const quiet = await measure();
    const outcomes: Record<number, number> = {};
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const answerTimes: number[] = [];
    const flood: Array<Promise<void>> = [];
    const started = Date.now();
    const timer = setInterval(() => {
      // As many as are due by now, so a late tick does not thin the flood.
      const due = Math.min(WRONG_PASSWORDS, Math.ceil(((Date.now() - started) / (seconds * 1000)) * WRONG_PASSWORDS));
      while (flood.length < due) {
        const n = flood.length;
        flood.push(
          request(server.port, 'POST', `/${slug}`, form, `password=wrong-${n}`).then((answer) => {
            outcomes[answer.status] = (outcomes[answer.status] ?? 0) + 1;
            answerTimes.push(answer.ms);
          }),
        );
      }
      if (flood.length >= WRONG_PASSWORDS) clearInterval(timer);
    }, 5);
    const busy = await measure();
    await Promise.all(flood);
    const arrived = Object.values(outcomes).reduce((a, b) => a + b, 0);
    const result = {
      seconds,
      quiet,
      duringWrongPasswords: busy,
      wrongPasswords: {
        arrived,
        byStatus: outcomes,
        answerMedianMs: Math.round(percentile(answerTimes, 50)),
        answerP99Ms: Math.round(percentile(answerTimes, 99)),
      },
      redirectRatio: Number((busy.redirectsPerSecond / quiet.redirectsPerSecond).toFixed(3)),
      assetMedianRatio: Number((busy.assetMedianMs / quiet.assetMedianMs).toFixed(2)),
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))) },
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await server.stop();
    agent.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
