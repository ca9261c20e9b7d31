// The "analytics fixed-rate" scenario's harness (bench/fixed-rate.ts) at a small rate for a short
// time: it paces its visits, and counts what was stored and dropped. Speed is never asserted.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('npm run bench -- --smoke --only "analytics fixed-rate" sends visits at the rate asked and reports them stored, dropped and their CPU', {
  timeout: 150_000,
}, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-fixed-rate-test-'));
  const out = path.join(dir, 'result.json');
  const args = [
    '--import',
    'tsx',
    'bench/run.ts',
    '--smoke',
    '--only',
    'analytics fixed-rate',
    '--rates',
    '100,300',
    '--fixed-seconds',
    '2',
    '--out',
    out,
  ];
  await promisify(execFile)(process.execPath, args, { cwd: ROOT, timeout: 140_000 });
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  // --only keeps the baseline and the fixed-rate runs, one per rate.
  assert.deepEqual(
    result.scenarios.map((s: { name: string }) => s.name),
    ['baseline'],
  );
  assert.deepEqual(
    result.fixedRate.map((f: { rate: number }) => f.rate),
    [100, 300],
  );
  for (const f of result.fixedRate) {
    // Paced: about rate × seconds visits, not as many as the server could take.
    assert.ok(f.sent >= f.rate * 2 * 0.9 && f.sent <= f.rate * 2 * 1.05, `${f.rate}/s sent ${f.sent}`);
    assert.equal(f.errors, 0);
    // Far below the writer's capacity: every visit a person made is stored, none dropped.
    assert.equal(f.stored, f.sent, `${f.rate}/s stored ${f.stored} of ${f.sent}`);
    assert.equal(f.dropped, 0);
    assert.ok(f.serverCpuMicrosPerVisit > 0);
    assert.ok(f.generatorCpuShare > 0 && f.generatorCpuShare <= 1.5, `generator share ${f.generatorCpuShare}`);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
