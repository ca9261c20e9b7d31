// `npm run fuzz [-- --requests N] [--concurrency N] [--seed N] [--out FILE]`: hostile HTTP
// requests against the built server, started as a process on a fresh SQLite directory.
// `npm run fuzz -- --regressions`: each seed that once failed (harness/hostile/regression-seeds.ts), on a
// server of its own, with its own request count.
// Passes (exit 0) only with no 5xx, every /v2 and /v3 error as `{message, code}` JSON, the
// server still serving at the end and its resident memory flat after warm-up.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { runFuzz, verdict } from '../harness/hostile/fuzz-run.js';
import { startFuzzServer } from '../harness/hostile/fuzz-server.js';
import { REGRESSION_SEEDS } from '../harness/hostile/regression-seeds.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '16' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    out: { type: 'string' },
    regressions: { type: 'boolean', default: false },
  },
});

const runs = values.regressions
  ? REGRESSION_SEEDS.map(({ seed, requests }) => ({ seed: String(seed), requests: String(requests) }))
  : [{ seed: values.seed, requests: values.requests }];
let failed = false;
for (const run of runs) failed = !(await fuzzOnce(run.seed, run.requests)) || failed;
process.exitCode = failed ? 1 : 0;

/** One fuzz run on a server of its own; true when it passed. */
async function fuzzOnce(seed: string, requests: string): Promise<boolean> {
  const fuzz = await startFuzzServer();
  console.log(`fuzzing ${fuzz.server.port}: ${requests} requests, concurrency ${values.concurrency}, seed ${seed}`);
  try {
    const report = await runFuzz({
      port: fuzz.server.port,
      targets: fuzz.targets,
      checkToken: fuzz.checkToken,
      requests: Number(requests),
      concurrency: Number(values.concurrency),
      seed: Number(seed),
      rssBytes: () => fuzz.server.rssBytes(),
      onProgress: (done, r) => console.log(`${done} requests, ${r.problemCount} problems, RSS ${(fuzz.server.rssBytes() / 2 ** 20).toFixed(1)} MB`),
    });
    const failures = verdict(report);
    if (fuzz.server.child.exitCode !== null || fuzz.server.child.signalCode !== null) {
      failures.push(`the server exited (${fuzz.server.child.exitCode ?? fuzz.server.child.signalCode}): ${fuzz.server.output()}`);
    }
    console.log(JSON.stringify({ ...report, problems: report.problems.slice(0, 10) }, null, 2));
    if (values.out) fs.writeFileSync(values.out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(failures.length === 0 ? `fuzz: passed (seed ${seed})` : `fuzz: FAILED (seed ${seed})\n- ${failures.join('\n- ')}`);
    return failures.length === 0;
  } finally {
    await fuzz.close();
  }
}
