// `brief import`'s progress line: drawn on stderr when it is a terminal (here a
// pseudo-terminal made by util-linux `script`), rewritten in place, and never written into a pipe.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../scale-support/server-process.js';
import { MAIN } from '../support/process.js';

/** What rewrites the line: a carriage return, then ANSI "erase to the end of the line". */
const CLEAR = `\r${String.fromCharCode(27)}[K`;

describe('brief import progress line', () => {
  let dir: string;
  let env: Record<string, string>;
  let file: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-import-progress-'));
    env = { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}`, BASE_URL: 'http://short.test' };
    file = path.join(dir, 'links.csv');
    fs.writeFileSync(file, `url,slug\n${Array.from({ length: 3000 }, (_, i) => `https://example.com/${i},p${i}`).join('\n')}\nnot a url,bad\n`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('shows rows, rate and counts on a terminal, rewritten in place and cleared before the summary', async () => {
    const command = [process.execPath, MAIN, 'import', file, '--format', 'csv'].map((a) => `'${a}'`).join(' ');
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${out}`))));
    });
    const drawn = output.split(CLEAR).slice(1);
    assert.ok(
      drawn.some((text) => /^\d+ rows, \d+\/s: \d+ imported, 0 skipped, \d+ errors/.test(text)),
      `a progress line was drawn: ${JSON.stringify(output.slice(0, 300))}`,
    );
    assert.match(output, /line 3002: its url must be a valid URL/);
    assert.ok(
      drawn.some((text) => /^3001 rows in [\d.]+ s/.test(text)),
      'the line is cleared before the summary',
    );
  });

  it('writes no progress line into a pipe', async () => {
    const again = await runCli(['import', file, '--format', 'csv'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.ok(!again.stderr.includes(CLEAR));
    assert.doesNotMatch(again.stderr, /rows, \d+\/s/);
    assert.match(again.stdout, /skipped 3000 imported before/);
  });
});
