// The README's quick start, run as it stands against a fresh database (issue 25 item 4, decision 0016):
// the commands are read from the README's quick-start block, so the documentation and this test cannot
// drift apart. Only the port differs (the server listens on a free one instead of 3000).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli, serverSuite } from '../scale-support/server-process.js';
import { type CliResult, finished } from '../support/process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MARKER = '<!-- quick-start:';

/** The shell block after the README's quick-start marker. */
export function quickStartBlock(readme: string): string {
  const at = readme.indexOf(MARKER);
  assert.ok(at >= 0, 'the README has a quick-start block');
  const block = /```sh\n([\s\S]*?)\n```/.exec(readme.slice(at));
  assert.ok(block, 'the quick-start marker is followed by a sh block');
  return block[1]!;
}

/** The JSON value starting where `prefix` first appears in `text` (curl's answers end without a newline). */
function jsonAt(text: string, prefix: string): any {
  const start = text.indexOf(prefix);
  assert.ok(start >= 0, `no ${prefix} in:\n${text}`);
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return JSON.parse(text.slice(start, i + 1));
  }
  assert.fail(`unterminated JSON after ${prefix}`);
}

function bash(script: string, env: Record<string, string>): Promise<CliResult> {
  const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', script], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.homedir(), LOG_LEVEL: 'warn', ...env },
  });
  return finished(child);
}

describe('the README quick start', () => {
  const suite = serverSuite('brief-quick-start-');
  const { env } = suite;

  it('works as written on a fresh database', async () => {
    const block = quickStartBlock(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
    assert.match(block, /brief account create alice[\s\S]*brief token create alice/, 'the account is made before its token');
    // As a reader of the README runs it, the CLI has the server's PORT (both 3000 there): without it the CLI
    // says on stderr that it uses the server's recorded address (decision 0033).
    const run = await bash(block.replaceAll('localhost:3000', `localhost:${suite.server.port}`), { ...env, PORT: String(suite.server.port) });
    assert.equal(run.code, 0, `the quick start failed:\n${run.stdout}\n${run.stderr}`);
    const lines = run.stdout.trim().split('\n');
    // curl's answers end without a newline: the echoed token is at the end of the last line.
    const token = /(brf_\S+)$/.exec(lines.at(-1)!)?.[1] ?? '';
    assert.match(token, /^brf_\S{20,}$/, 'the token is echoed last');
    const shortened = jsonAt(run.stdout, '{"code"');
    assert.equal(shortened.shortened, `http://localhost:${suite.server.port}/first`);
    assert.equal(shortened.url, 'https://example.com/some/long/page');
    assert.match(run.stdout, /HTTP\/1\.1 301 /);
    assert.match(run.stdout, /^location: https:\/\/example\.com\/some\/long\/page\r?$/im);
    const list = jsonAt(run.stdout, '{"links"');
    assert.deepEqual(
      list.links.map((link: { slug: string }) => link.slug),
      ['first'],
      'the link is listed as the token’s own',
    );
    // The echoed token is alice's: her links, not the anonymous account's.
    const mine = await fetch(`http://127.0.0.1:${suite.server.port}/v3/shorten/list`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(mine.status, 200);
    assert.ok(((await mine.json()) as { links: Array<{ slug: string }> }).links.some((link) => link.slug === 'first'));
  });

  it('token create (and the other commands naming an account) on an unknown account says what to run', async () => {
    for (const args of [
      ['token', 'create', 'bob'],
      ['token', 'list', 'bob'],
      ['domain', 'add', 'go.bob.example', '--account', 'bob'],
    ]) {
      const result = await runCli(args, { ...env, PORT: String(suite.server.port) });
      assert.equal(result.code, 1, args.join(' '));
      assert.equal(result.stderr.trim(), 'brief: No account named "bob": make it first with: brief account create bob');
      assert.equal(result.stdout, '');
    }
  });
});
