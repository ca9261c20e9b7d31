// The benchmark harness runs end to end and reports every scenario. Speed is never asserted:
// benchmarks are not tests (see docs/benchmarks.md).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');

test("npm run bench -- --smoke writes a result for every scenario, without errors, with the generator's CPU share", {
  timeout: 150_000,
}, async () => {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'brief-bench-test-')), 'result.json');
  await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--out', out], { cwd: ROOT, timeout: 140_000 });
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  const names = result.scenarios.map((s: { name: string }) => s.name);
  assert.deepEqual(names, [
    'baseline',
    'redirect hot',
    'redirect hot browser',
    'redirect hot card',
    'redirect zipf',
    'redirect cold',
    'redirect cold 1k',
    'shorten new',
    'shorten dedupe',
    'list domains',
    'bulk create',
    'redirect hot webhook',
    'redirect hot webhook hanging',
    'shorten new webhook',
    'shorten new webhook hanging',
  ]);
  const bulk = result.scenarios.find((s: { name: string }) => s.name === 'bulk create');
  // Links per second: 200 a request (requests/s is rounded on its own, hence the slack).
  assert.ok(Math.abs(bulk.itemsPerSecond - bulk.requestsPerSecond * 200) <= 100, 'bulk create is reported in links/s');
  for (const s of result.scenarios) {
    assert.ok(s.requestsPerSecond > 0, `${s.name} answered`);
    assert.equal(s.errors, 0, `${s.name} had errors`);
    assert.equal(typeof s.ratioToBaseline, 'number');
    // wrk's own CPU, read from /proc by its script: a share of its core, and a verdict on it.
    // A 1 s load of a few big requests (bulk create on a loaded machine) can use less than /proc's 10 ms tick: 0.
    assert.ok(s.generatorCpuShare >= 0 && s.generatorCpuShare <= 1.5, `${s.name}: generator share ${s.generatorCpuShare}`);
    assert.equal(s.valid, s.generatorCpuShare <= 0.8 && result.scenarios[0].generatorCpuShare <= 0.8);
  }
  assert.ok(result.rssBytes > 0);
  assert.ok(result.sqlite.afterRun.bytesPerLink > 0);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});
