// `npm test` and `npm run test:<kind>`: the test files of the kinds asked for (all without any), side by side.
//
//   node --import tsx scripts/run-tests.ts [unit|http|postgres|browser|e2e ...] [--concurrency N]
//
// What every suite would otherwise pay on its own is paid once here, before the first file starts:
// - a migrated SQLite file and (with TEST_DATABASE_URL) a migrated PostgreSQL template database, which
//   test/support/database.ts copies for each suite (a file copy; CREATE DATABASE … TEMPLATE);
// - one Chromium (with browser tests), which each browser suite reaches through its own contexts;
// - the TypeScript, transpiled into .test-build/ (scripts/transpile-tests.ts): each process loads plain JavaScript
//   rather than every module through a loader's thread.
// A file's kind is read off its path (scripts/test-kinds.ts: its suite's folder, or its name beside the code it tests).
// Files run CONCURRENCY at a time, each in its own process with its own database, port, data folder and
// Redis prefix; the few listed in SERIAL run afterwards, one at a time, and say why. The line coverage of src/
// is printed at the end; a run of every kind fails below COVERAGE_FLOOR.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromiumServerOptions } from '../test/support/chromium.js';
import { prepareTemplates } from '../test/support/templates.js';
import { srcCoverage } from './test-coverage.js';
import { KINDS, type Kind, testFiles } from './test-kinds.js';
import { builtPath, transpileTests } from './transpile-tests.js';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Files that cannot run beside others, and why. They run after the rest, one at a time.
 * - the benchmark harness's smoke runs load a server with wrk and check the load generator's CPU share,
 *   which other tests on the same two cores would make meaningless.
 */
const SERIAL: Readonly<Record<string, string>> = {
  'test/bench/harness.test.ts': "loads a server with wrk and reads the generator's CPU share",
  'test/bench/fixed-rate.test.ts': 'sends visits at a fixed rate and checks they were answered at that rate',
};

/**
 * The order files start in: one of each kind in turn (e2e, browser, postgres, http, unit, then again), so the
 * long files that start processes or drive the browser start early but never crowd the cores together (nine
 * browser files at once spent most of their time waiting on the one Chromium), and the many short unit and http
 * files fill the last gaps.
 */
const START_ORDER: readonly Kind[] = ['e2e', 'browser', 'postgres', 'http', 'unit'];

/** Files in turns of one of each kind, START_ORDER's, each kind's files in their own order. */
function inTurns(entries: ReadonlyArray<{ file: string; kind: Kind }>): string[] {
  const byKind = START_ORDER.map((kind) => entries.filter((entry) => entry.kind === kind).map((entry) => entry.file));
  const longest = Math.max(0, ...byKind.map((files) => files.length));
  return Array.from({ length: longest }, (_, turn) => byKind.flatMap((files) => (turn < files.length ? [files[turn]!] : []))).flat();
}

/** src/'s line coverage by a run of every kind with PostgreSQL and Redis (percent), at least: raise it as tests are added, never lower it. */
const COVERAGE_FLOOR = 93.0;

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const kinds = args.filter((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--concurrency')) as Kind[];
for (const kind of kinds) {
  if (!(KINDS as readonly string[]).includes(kind)) {
    console.error(`run-tests: unknown kind "${kind}"; the kinds are ${KINDS.join(', ')}`);
    process.exit(2);
  }
}
const chosen: readonly Kind[] = kinds.length > 0 ? kinds : KINDS;
/** Most files wait on a database, a process or a socket more than they compute: two a core keeps both busy. */
const concurrency = Number(option('--concurrency') ?? Math.max(2, os.availableParallelism() * 2));
const coverageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-coverage-'));

function run(group: string, files: string[], jobs: number, env: NodeJS.ProcessEnv): Promise<number> {
  if (files.length === 0) return Promise.resolve(0);
  const flags = [
    // The files' source maps: stack traces and coverage name the TypeScript.
    '--enable-source-maps',
    '--import',
    './test/support/own-coverage.mjs',
    '--test',
    `--test-concurrency=${jobs}`,
    '--experimental-test-coverage',
  ];
  const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
  reporters.push('--test-reporter=lcov', `--test-reporter-destination=${path.join(coverageDir, `${group}.lcov`)}`);
  const built = files.map(builtPath);
  const child: ChildProcess = spawn(process.execPath, [...flags, ...reporters, ...built], { cwd: ROOT, env, stdio: 'inherit' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

async function main(): Promise<number> {
  // Every test file has one kind, so a run of every kind runs each file once; one without a kind stops the run, named.
  const classified = testFiles(ROOT);
  const problems = classified.flatMap((entry) => ('problem' in entry ? [`${entry.file} ${entry.problem}`] : []));
  const gone = Object.keys(SERIAL).filter((file) => !classified.some((entry) => entry.file === file));
  problems.push(...gone.map((file) => `${file}, in SERIAL in scripts/run-tests.ts, is no test file: rename or remove its line`));
  if (problems.length > 0) {
    console.error(`run-tests: no kind (scripts/test-kinds.ts, docs/testing.md):\n  ${problems.join('\n  ')}`);
    return 2;
  }
  const files = inTurns(classified.flatMap((entry) => ('kind' in entry && chosen.includes(entry.kind) ? [entry] : [])));
  const serial = files.filter((file) => file in SERIAL);
  const parallel = files.filter((file) => !(file in SERIAL));
  const started = Date.now();
  await transpileTests(ROOT);
  const templates = await prepareTemplates();
  const chromium = chosen.includes('browser') ? await startChromium() : undefined;
  const env = { ...process.env, ...templates.env, ...chromium?.env };
  try {
    console.log(`# run-tests: ${parallel.length} files ${concurrency} at a time, then ${serial.length} alone (${chosen.join(', ')})`);
    const failedParallel = await run('parallel', parallel, concurrency, env);
    const failedSerial = await run('serial', serial, 1, env);
    console.log(`# run-tests: ${files.length} files in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const coverage = srcCoverage(fs.readdirSync(coverageDir).map((name) => path.join(coverageDir, name)));
    console.log(`# run-tests: src/ line coverage ${coverage.percent}% (${coverage.covered} of ${coverage.lines} lines)`);
    // The floor holds for the run CI makes: every kind, with PostgreSQL and Redis (without them their suites do not run).
    const complete = chosen.length === KINDS.length && Boolean(process.env.TEST_DATABASE_URL && process.env.TEST_REDIS_URL);
    if (complete && coverage.percent < COVERAGE_FLOOR) {
      console.error(`run-tests: src/ line coverage ${coverage.percent}% is below the floor of ${COVERAGE_FLOOR}%`);
      return 1;
    }
    return failedParallel || failedSerial;
  } finally {
    await chromium?.close();
    await templates.drop();
    fs.rmSync(coverageDir, { recursive: true, force: true });
  }
}

/** One Chromium for the run: the browser suites connect to it (test/browser/browser.ts) instead of each launching its own. */
async function startChromium(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const server = await chromium.launchServer(chromiumServerOptions());
  return { env: { TEST_CHROMIUM_WS: server.wsEndpoint() }, close: () => server.close() };
}

process.exitCode = await main();
