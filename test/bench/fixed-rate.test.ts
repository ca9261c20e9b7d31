// The "analytics fixed-rate" scenarios (bench/fixed-rate.ts): the parsing and the server figures they use
// (harness/cli-numbers.ts, paced-load.ts, server-figures.ts) on their own, then the whole scenario at small rates for a short time (it paces its visits, and counts
// what was answered, counted, stored and dropped). Speed is never asserted.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { positiveWholes } from '../../harness/cli-numbers.js';
import { parsePacedResult } from '../../harness/paced-load.js';
import { metricValue, splitThreadCpu, threadCpuSeconds, visitTotals } from '../../harness/server-figures.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

test('positiveWholes reads a list of positive whole numbers and names the flag when it cannot', () => {
  assert.deepEqual(positiveWholes('--rates', '2000,5000, 10000'), [2000, 5000, 10000]);
  assert.deepEqual(positiveWholes('--fixed-seconds', '60'), [60]);
  for (const bad of ['', '0', '-5', '2k', '1.5', '2000,,10000', '9999999999', undefined]) {
    assert.throws(() => positiveWholes('--rates', bad), /--rates takes positive whole numbers separated by commas/, String(bad));
  }
});

test('parsePacedResult joins wrk-load.lua and wrk-paced.lua results: sent, answered, late, the achieved rate and the CPU share', () => {
  const stdout = [
    'Running 2s test @ http://127.0.0.1:1234',
    'BENCH_RESULT {"requests":19990,"durationMicros":2000000,"errors":3,"p50Micros":800,"p99Micros":4150,"cpuTicks":50}',
    'BENCH_PACED {"sent":20010,"answered":19987,"late":12}',
    '',
  ].join('\n');
  assert.deepEqual(parsePacedResult(stdout), {
    sent: 20010,
    answered: 19987,
    errors: 3,
    late: 12,
    seconds: 2,
    achievedRate: 10005,
    p50: 0.8,
    p99: 4.2,
    generatorCpuShare: 0.25,
  });
  assert.throws(
    () => parsePacedResult('BENCH_RESULT {"requests":1,"durationMicros":1,"errors":0,"p50Micros":1,"p99Micros":1,"cpuTicks":0}\n'),
    /no paced result/,
  );
  assert.throws(() => parsePacedResult('BENCH_PACED {"sent":1,"answered":1,"late":0}\n'), /no result/);
});

test('splitThreadCpu charges the main thread, the busiest other thread (the writer) and the rest; threads born meanwhile count from zero', () => {
  const before = new Map([
    [100, 1.0],
    [101, 0.2],
    [102, 0.5],
  ]);
  const after = new Map([
    [100, 4.0],
    [101, 0.4],
    [102, 2.5],
    [103, 0.3],
  ]);
  const split = splitThreadCpu(100, before, after);
  assert.equal(split.main, 3);
  assert.equal(split.writer, 2);
  assert.ok(Math.abs(split.rest - 0.5) < 1e-9);
  // This very process: its main thread is its pid, and every thread's time is a number of seconds.
  const own = threadCpuSeconds(process.pid);
  assert.ok(own.has(process.pid));
  for (const seconds of own.values()) assert.ok(Number.isFinite(seconds) && seconds >= 0);
});

test('metricValue reads one counter of a Prometheus text', () => {
  const text = [
    '# HELP brief_analytics_visits_dropped_total Click events dropped',
    '# TYPE brief_analytics_visits_dropped_total counter',
    'brief_analytics_visits_dropped_total 1234',
    'brief_analytics_visits_buffered 5',
  ].join('\n');
  assert.equal(metricValue(text, 'brief_analytics_visits_dropped_total'), 1234);
  assert.equal(metricValue(text, 'brief_analytics_visits_buffered'), 5);
  assert.equal(metricValue(text, 'brief_links_created_total'), undefined);
  assert.equal(metricValue('', 'brief_analytics_visits_dropped_total'), undefined);
});

test('visitTotals sums the click totals and the people visits stored: from the events, or the workspace rollups without them', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-visit-totals-'));
  const withEvents = path.join(dir, 'events.db');
  let db = new Database(withEvents);
  db.exec(`CREATE TABLE link_clicks (link_id INTEGER, clicks INTEGER);
    INSERT INTO link_clicks VALUES (1, 10), (2, 5);
    CREATE TABLE click_events (link_id INTEGER, bot TEXT, clicks INTEGER);
    INSERT INTO click_events VALUES (1, NULL, 7), (2, NULL, 4), (2, 'crawler', 1);`);
  db.close();
  assert.deepEqual(visitTotals(withEvents), { counted: 15, stored: 11 });
  const rollupsOnly = path.join(dir, 'rollups.db');
  db = new Database(rollupsOnly);
  db.exec(`CREATE TABLE link_clicks (link_id INTEGER, clicks INTEGER);
    INSERT INTO link_clicks VALUES (1, 3);
    CREATE TABLE click_rollups (account_id INTEGER, link_id INTEGER, period TEXT, dimension TEXT, start INTEGER, value TEXT, clicks INTEGER);
    INSERT INTO click_rollups VALUES (1, 0, 'quarter', 'clicks', 0, '', 2), (1, 0, 'quarter', 'country', 0, 'FR', 2),
      (1, 0, 'day', 'clicks', 0, '', 2), (1, 7, 'quarter', 'clicks', 0, '', 2);`);
  db.close();
  assert.deepEqual(visitTotals(rollupsOnly), { counted: 3, stored: 2 });
  fs.rmSync(dir, { recursive: true, force: true });
});

test('npm run bench -- --smoke with both fixed-rate scenarios sends visits at the rate asked and reports them answered, counted, stored, dropped and their CPU', {
  timeout: 200_000,
}, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-fixed-rate-test-'));
  const out = path.join(dir, 'result.json');
  const args = [
    '--import',
    'tsx',
    'bench/run.ts',
    '--smoke',
    '--only',
    'analytics fixed-rate,analytics fixed-rate zipf',
    '--rates',
    '100,300',
    '--fixed-seconds',
    '2',
    '--out',
    out,
  ];
  await promisify(execFile)(process.execPath, args, { cwd: ROOT, timeout: 190_000 });
  const result = JSON.parse(fs.readFileSync(out, 'utf8'));
  // --only keeps the baseline and the fixed-rate runs, one per distribution and rate.
  assert.deepEqual(
    result.scenarios.map((s: { name: string }) => s.name),
    ['baseline'],
  );
  assert.deepEqual(
    result.fixedRate.map((f: { distribution: string; rate: number }) => `${f.distribution} ${f.rate}`),
    ['link 100', 'link 300', 'zipf 100', 'zipf 300'],
  );
  for (const f of result.fixedRate) {
    const what = `${f.distribution} ${f.rate}/s`;
    // Paced: about rate × seconds visits, not as many as the server could take.
    // Over the time wrk really ran: it stops on its next 100 ms check after the 2 s.
    assert.ok(f.sent >= f.rate * f.seconds * 0.85 && f.sent <= f.rate * f.seconds * 1.05, `${what} sent ${f.sent} in ${f.seconds} s`);
    assert.equal(f.errors, 0);
    // A request in flight when wrk stopped is counted by the server, not answered to wrk.
    assert.ok(f.answered <= f.sent && f.answered >= f.sent - 100, `${what} answered ${f.answered} of ${f.sent}`);
    assert.ok(f.counted >= f.answered && f.counted <= f.sent, `${what} counted ${f.counted}`);
    // Far below the writer's capacity: every visit a person made is stored, none dropped.
    assert.equal(f.stored, f.counted, `${what} stored ${f.stored} of ${f.counted}`);
    assert.equal(f.dropped, 0);
    assert.ok(f.serverCpuMicrosPerVisit > 0);
    assert.ok(f.serverCoreShare > 0 && f.serverCoreShare <= 2.5, `${what}: server share ${f.serverCoreShare}`);
    assert.ok(f.serverCpuMicrosPerVisit >= f.mainCpuMicrosPerVisit + f.writerCpuMicrosPerVisit - 0.2, what);
    assert.ok(f.generatorCpuShare >= 0 && f.generatorCpuShare <= 1.5, `${what}: generator share ${f.generatorCpuShare}`);
    assert.equal(f.valid, f.generatorCpuShare <= 0.8);
    assert.equal(f.held, f.achievedRate >= f.rate * 0.97);
  }
  fs.rmSync(dir, { recursive: true, force: true });
});
