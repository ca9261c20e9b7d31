// The load generator: wrk (C, one thread, Debian's package), scripted by bench/wrk-load.lua for
// dynamic paths and bodies. autocannon, in this process, was the limit (about 16k requests/s with
// dynamic paths): both the baseline and Brief ran at its speed and a slower Brief went unseen. Each
// load reports the generator's CPU share of its core, and a load whose generator sat above
// GENERATOR_LIMIT of it is marked: its figure measured the generator, not the server.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freshRunId, runWrk, type WrkLoad } from '../harness/wrk.js';
import { type LoadResult, parseWrkResult } from '../harness/wrk-result.js';

export type { LoadResult };

/** What each request of a load is. */
export type LoadRequest =
  /** GET of one path, with a User-Agent when given (none otherwise, as wrk sends). */
  | { kind: 'fixed'; path: string; userAgent?: string }
  /** GET /<key> of a random one of `links` preloaded links (bench/link-keys.ts); `zipf`: ranks drawn with s = 1. */
  | { kind: 'link' | 'zipf'; links: number }
  /** GET /v2/shorten of a URL never shortened before. */
  | { kind: 'shorten' }
  /** POST /v3/shorten/bulk of `items` URLs never shortened before. */
  | { kind: 'bulk'; items: number };

export interface LoadSpec extends WrkLoad {
  request: LoadRequest;
}

/** Above this share of its core the generator, not the server, may be what was measured. */
export const GENERATOR_LIMIT = 0.8;

const SCRIPT = path.join(import.meta.dirname, 'wrk-load.lua');

/** wrk on the PATH, installed from Debian when missing and this process may (root). */
export function ensureWrk(): void {
  if (onPath('wrk')) return;
  if (process.getuid?.() === 0 && onPath('apt-get')) {
    console.error('[bench] installing wrk (Debian package) for the load generator');
    execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
    if (onPath('wrk')) return;
  }
  throw new Error('the benchmark drives its load with wrk: install it (Debian/Ubuntu: apt-get install wrk)');
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(':').some((dir) => dir && fs.existsSync(path.join(dir, command)));
}

/** The arguments bench/wrk-load.lua reads: KIND COUNT HOST RUN [PATH [USER_AGENT]]. */
function loadArgs(request: LoadRequest, host: string): string[] {
  const run = freshRunId();
  switch (request.kind) {
    case 'fixed':
      return ['fixed', '0', host, run, request.path, ...(request.userAgent === undefined ? [] : [request.userAgent])];
    case 'link':
    case 'zipf':
      return [request.kind, String(request.links), host, run];
    case 'shorten':
      return ['shorten', '0', host, run];
    case 'bulk':
      return ['bulk', String(request.items), host, run];
  }
}

/** One wrk run (it inherits this process's core: see pinSelf in harness/servers.ts). */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const scriptArgs = loadArgs(spec.request, spec.host);
  return parseWrkResult(
    await runWrk({ port: spec.port, connections: spec.connections, seconds: spec.seconds, script: SCRIPT, scriptArgs, graceSeconds: 30 }),
  );
}
