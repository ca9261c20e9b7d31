// Runs the built server (`node dist/main.js serve`) as a real process, and the CLI, for the suites beside it.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { type CliResult, finished, freePort, MAIN } from '../support/process.js';

export { freePort };

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = any>(): T;
}

/** One HTTP request to 127.0.0.1:port; `host` sets the Host header (which picks the short domain). */
export function request(
  port: number,
  method: string,
  pathAndQuery: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: pathAndQuery, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const NO_RATE_LIMITS = {
  RATE_LIMIT_ANON: '0',
  RATE_LIMIT_TOKEN: '0',
  RATE_LIMIT_READ: '0',
  RATE_LIMIT_PASSWORD: '0',
  RATE_LIMIT_PASSWORD_ADDRESS: '0',
  RATE_LIMIT_DOMAIN_VERIFY: '0',
};

export class ServerProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (d) => (this.output += d));
    child.stderr?.on('data', (d) => (this.output += d));
    this.exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  }

  /** Starts a server on a free port with `env` on top of a clean environment, and waits until it answers. */
  static async start(env: Record<string, string>): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN, 'serve'], {
      // The limits off unless a suite sets them: these suites make many calls from one address.
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...NO_RATE_LIMITS, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const server = new ServerProcess(port, child);
    await server.waitUntilListening();
    return server;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  get log(): string {
    return this.output;
  }

  /** SIGTERM, then the exit code (0 after a clean shutdown that flushed its clicks). */
  async stop(): Promise<number | null> {
    if (this.alive) this.child.kill('SIGTERM');
    return this.exited;
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }

  /** Sends a signal (SIGHUP: read BLOCKLIST_FILE again). */
  signal(name: NodeJS.Signals): void {
    if (this.alive) this.child.kill(name);
  }

  private async waitUntilListening(): Promise<void> {
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      if (!this.alive) throw new Error(`server exited during start-up:\n${this.output}`);
      try {
        await request(this.port, 'GET', '/__not-a-link__');
        return;
      } catch {
        await sleep(50);
      }
    }
    this.kill();
    throw new Error(`server did not start within 15 s:\n${this.output}`);
  }
}

/** Runs one `brief …` CLI command to completion; `input`, when given, is its standard input. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env } });
  const done = finished(child);
  if (input !== undefined) child.stdin.end(input);
  return done;
}

/**
 * The CLI as a suite runs it (`env()`: its environment once the suite has set it up): `cli` answers what a
 * command printed and fails the test unless it exits 0; `cliFails` wants exit 1, nothing on stdout and one
 * line on stderr that matches `pattern`.
 */
export function cliCommands(env: () => Record<string, string>) {
  return {
    cli: async (...args: string[]): Promise<string> => {
      const result = await runCli(args, env());
      assert.equal(result.code, 0, `brief ${args.join(' ')}: ${result.stderr}`);
      return result.stdout;
    },
    cliFails: async (pattern: RegExp, ...args: string[]): Promise<void> => {
      const result = await runCli(args, env());
      assert.equal(result.code, 1, `brief ${args.join(' ')} should fail: ${result.stdout}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr.trim(), pattern);
      assert.equal(result.stderr.trim().split('\n').length, 1, 'one line');
    },
  };
}

/**
 * A suite beside a running server: a scratch folder with the SQLite database, the server started on it
 * (`extraEnv(dir)` on top) before the suite's tests, and stopped, the folder removed, after them.
 */
export function serverSuite<Extra extends Record<string, string>>(prefix: string, extraEnv?: (dir: string) => Extra) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const env = { DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`, ...extraEnv?.(dir) } as { DATABASE_URL: string } & Extra;
  let server: ServerProcess | undefined;
  before(async () => {
    server = await ServerProcess.start(env);
  });
  after(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    env,
    ...cliCommands(() => env),
    get server(): ServerProcess {
      assert.ok(server, 'the suite has started its server');
      return server;
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns true or `timeoutMs` passes; answers whether it did. */
export async function eventually(check: () => Promise<boolean>, timeoutMs: number, everyMs = 25): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(everyMs);
  }
}
