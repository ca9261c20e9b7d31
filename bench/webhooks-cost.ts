// `node --import tsx bench/webhooks-cost.ts [seconds] [rounds]` (after `npm run build`): what webhooks cost the hot
// paths (issue 41). One built server on SQLite with analytics on; in alternating rounds, a redirect load on one link and
// a shorten load, each (a) with no webhook, (b) with an endpoint subscribed to link.clicked and link.created that
// answers at once, (c) with one whose receiver never answers (each delivery waits out the 10 s timeout). Requests a
// second, p99 and the server's CPU per request: the redirect and the shorten never wait on a delivery, so (b) and (c)
// should be within noise of (a).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settle, startBrief } from '../harness/servers.js';
import { ANONYMOUS_ACCOUNT } from '../src/accounts/account-service.js';
import { runLoad } from './load.js';
import { startHookReceiver } from './webhook-receiver.js';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 2);
const DOMAIN = 'bench.test';
const ROOT = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-webhooks-bench-'));
const dbFile = path.join(dir, 'brief.db');
const env = { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ANALYTICS: 'full' };
const cliEnv = { ...process.env, ...env, DATABASE_URL: `sqlite:${dbFile}`, BASE_URL: `http://${DOMAIN}`, LOG_LEVEL: 'warn' };
const cli = (...args: string[]) => execFileSync(process.execPath, [path.join(ROOT, 'dist/main.js'), ...args], { env: cliEnv, encoding: 'utf8' });

cli('account', 'create', 'bench');
const token = cli('token', 'create', 'bench').trim().split('\n').at(-1)!;
const server = await startBrief('brief', { dbFile, domain: DOMAIN, env });
const fast = await startHookReceiver(false);
const hanging = await startHookReceiver(true);
// Whatever happens, nothing of the bench is left running.
process.on('exit', () => server.child.kill('SIGKILL'));
const api = async (method: string, pathname: string, body?: unknown) => {
  const answer = await fetch(`http://127.0.0.1:${server.port}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`${method} ${pathname}: ${answer.status} ${await answer.text()}`);
  return answer.json() as Promise<any>;
};
const [link] = await api('POST', '/v3/shorten/bulk', [{ url: 'https://example.com/webhooks-bench' }]);
const keyPath = new URL(link.shortLink).pathname;

type Phase = 'none' | 'fast' | 'hanging';
const results: Record<string, Array<{ rps: number; p99: number; cpuMicros: number }>> = {};
// The bench account's endpoint hears of its link's clicks; the anonymous account's (the shorten load makes its links
// without a token) of the links made: added and removed by the CLI, as an operator would.
let hooks: Array<{ account: string; id: string }> = [];
async function setPhase(phase: Phase) {
  for (const { account, id } of hooks) cli('webhook', 'remove', account, id);
  hooks = [];
  if (phase === 'none') return;
  const url = phase === 'fast' ? fast.url : hanging.url;
  for (const [account, event] of [
    ['bench', 'link.clicked'],
    [ANONYMOUS_ACCOUNT, 'link.created'],
  ] as const) {
    const added = cli('webhook', 'add', account, url, '--event', event, '--include-bots');
    hooks.push({ account, id: /added webhook (\d+)/.exec(added)![1]! });
  }
}

for (let round = 0; round < rounds; round++) {
  for (const phase of ['none', 'fast', 'hanging'] as const) {
    await setPhase(phase);
    for (const kind of ['redirect', 'shorten'] as const) {
      await settle(server);
      const cpu = server.cpuSeconds();
      const load = await runLoad({
        port: server.port,
        host: DOMAIN,
        connections: kind === 'redirect' ? 50 : 10,
        seconds,
        request: kind === 'redirect' ? { kind: 'fixed', path: keyPath } : { kind: 'shorten' },
      });
      const used = server.cpuSeconds() - cpu;
      const runs = results[`${kind} ${phase}`] ?? [];
      results[`${kind} ${phase}`] = runs;
      runs.push({
        rps: Math.round(load.requests / load.seconds),
        p99: load.p99,
        cpuMicros: Math.round((used / Math.max(1, load.requests)) * 1e6),
      });
      if (load.errors > 0) console.error(`[bench] ${kind} ${phase}: ${load.errors} errors`);
    }
  }
}
await setPhase('none');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log('scenario            req/s (median)  p99 ms (median)  server CPU µs/request (median)');
for (const [name, runs] of Object.entries(results)) {
  console.log(
    `${name.padEnd(20)}${String(median(runs.map((r) => r.rps))).padStart(14)}${median(runs.map((r) => r.p99))
      .toFixed(2)
      .padStart(17)}${String(median(runs.map((r) => r.cpuMicros))).padStart(32)}`,
  );
}
console.log(`deliveries: ${fast.received()} answered by the fast receiver, ${hanging.received()} sent to the hanging one`);
await server.stop();
await fast.close();
await hanging.close();
fs.rmSync(dir, { recursive: true, force: true });
