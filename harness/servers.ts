import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
// USER_HZ, the unit of /proc/PID/stat times: 100 on every Linux this runs on.
const CLOCK_TICKS = 100;
const hasTaskset = fs.existsSync('/usr/bin/taskset') || fs.existsSync('/bin/taskset');

export interface RunningServer {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
  /** The last 4,000 characters the server wrote: its log (warnings and worse) and standard error. */
  output(): string;
  rssBytes(): number;
  /** CPU seconds the server process has used so far, all threads, user + system. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/**
 * Waits until the server is idle: work it deferred during a load (with analytics on, the background
 * thread's event writes) would otherwise run during the next scenario's load, slowing whichever
 * server that measures, and be missing from the CPU of the load that caused it. Idle: at most
 * 20 ms of CPU in each of QUIET_WINDOWS windows of 250 ms (2 ticks of /proc's 10 ms), waiting at most
 * MAX_SETTLE_MS.
 * Returns the seconds it took.
 */
export async function settle(server: RunningServer): Promise<number> {
  const started = Date.now();
  let quiet = 0;
  for (let cpu = server.cpuSeconds(); quiet < QUIET_WINDOWS && Date.now() - started < MAX_SETTLE_MS; ) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = server.cpuSeconds();
    quiet = now - cpu <= 0.02 ? quiet + 1 : 0;
    cpu = now;
  }
  return (Date.now() - started) / 1000;
}
const MAX_SETTLE_MS = 120_000;
/** Quiet windows in a row: 1.25 s, longer than the background thread's 1 s timer (the per-link catch-up). */
const QUIET_WINDOWS = 5;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Pins this process (the load generator) to core 0; servers go on core 1. */
export function pinSelf(): void {
  if (!hasTaskset) return;
  spawn('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
}

function start(name: string, port: number, args: string[], env: Record<string, string>, cwd = ROOT): Promise<RunningServer> {
  const [command, ...rest] = hasTaskset ? ['taskset', '-c', '1', process.execPath, ...args] : [process.execPath, ...args];
  // The log (stdout, LOG_LEVEL warn: warnings only) and stderr, the last 4,000 characters of both.
  const child = spawn(command!, rest, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk).slice(-4000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const server: RunningServer = {
    name,
    port,
    child,
    output: () => output,
    // The node process is the child of taskset after exec: same pid.
    rssBytes: () => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    cpuSeconds: () => {
      // Fields 14 and 15 of /proc/PID/stat (utime, stime), counted after the command's ")".
      const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
  // A server that never answers is stopped, not left running on its database.
  return waitReady(port, child, () => output).then(
    () => server,
    async (error: unknown) => {
      await server.stop();
      throw error;
    },
  );
}

/**
 * How long a server may take to answer its first request: a few seconds on a quiet machine, but a
 * server on 1M links whose core other work shares took 35 s (2.3 s of it CPU) on 2026-11-26.
 */
const READY_MS = 120_000;

async function waitReady(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume();
        resolve(true);
      });
      req.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server on port ${port} not ready after ${READY_MS / 1000} s: ${output()}`);
}

/** Visits the server's analytics turned away because its buffer was full: the running total its warnings give (visit-recorder.ts). */
export function droppedVisits(server: RunningServer): number {
  return Math.max(0, ...[...server.output().matchAll(/"droppedTotal":(\d+)/g)].map((m) => Number(m[1])));
}

export async function startBaseline(): Promise<RunningServer> {
  const port = await freePort();
  return start('baseline', port, ['--import', 'tsx', path.join(ROOT, 'bench/baseline-server.ts'), String(port)], {});
}

/** The built server (dist/main.js serve) on a given SQLite file; `nodeArgs` e.g. --cpu-prof. */
export async function startBrief(
  name: string,
  options: { dbFile: string; domain: string; nodeArgs?: string[]; env?: Record<string, string>; root?: string },
): Promise<RunningServer> {
  const port = await freePort();
  return start(name, port, [...(options.nodeArgs ?? []), path.join(path.resolve(options.root ?? ROOT), 'dist/main.js'), 'serve'], {
    PORT: String(port),
    HOST: '127.0.0.1',
    BASE_URL: `http://${options.domain}`,
    DATABASE_URL: `sqlite:${options.dbFile}`,
    LOG_LEVEL: 'warn',
    // The rate limits run (their cost is measured) but are never reached by the load.
    RATE_LIMIT_ANON: '1000000000',
    RATE_LIMIT_TOKEN: '1000000000',
    RATE_LIMIT_READ: '1000000000',
    ...options.env,
  });
}

/**
 * Starts `copies` processes of one server, has `probe` measure each (CPU µs per request
 * under a short load), keeps the cheapest and stops the others. On this VM identical
 * processes settle, by the luck of their memory layout (ASLR and V8's own randomized
 * placement), into a fast or a ~25% slower mode that lasts for the process's life
 * (docs/benchmarks.md); a ratio of two single processes measured that luck as much as
 * the code. Every server, the baseline included, gets the same treatment.
 */
export async function startFastest(
  copies: number,
  start: () => Promise<RunningServer>,
  probe: (server: RunningServer) => Promise<number>,
): Promise<{ server: RunningServer; probes: number[] }> {
  const started: RunningServer[] = [];
  for (let i = 0; i < copies; i++) started.push(await start());
  if (copies === 1) return { server: started[0]!, probes: [] };
  const probes: number[] = [];
  for (const server of started) probes.push(await probe(server));
  const best = probes.indexOf(Math.min(...probes));
  for (const [i, server] of started.entries()) if (i !== best) await server.stop();
  return { server: started[best]!, probes: probes.map((p) => Number(p.toFixed(1))) };
}
