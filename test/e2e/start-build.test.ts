// `npm start` on a built clone starts the built server without building again, and builds first only
// when a source is newer than the build (issue 25 item 2, decision 0016). No timing is asserted: the
// seconds to the first answer are reported as a diagnostic (and measured from a fresh clone by
// scripts/clean-clone.sh, docs/benchmarks.md).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eventually, freePort, request } from '../scale-support/server-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PACKAGE = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

interface Started {
  port: number;
  output: () => string;
  stop: () => Promise<void>;
}

/** `npm start` in `dir`, in a process group of its own (npm, its shell and the server); waits for an answer. */
async function npmStart(dir: string, env: Record<string, string>, answerPath: string): Promise<Started & { seconds: number }> {
  const port = await freePort();
  const began = process.hrtime.bigint();
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: dir,
    detached: true,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {}
    await exited;
  };
  const answered = await eventually(
    async () => {
      if (child.exitCode !== null) return true;
      try {
        return (await request(port, 'GET', answerPath)).status === 200;
      } catch {
        return false;
      }
    },
    240_000,
    50,
  );
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  if (!answered || child.exitCode !== null) {
    await stop();
    assert.fail(`npm start did not answer ${answerPath}:\n${output}`);
  }
  return { port, seconds, output: () => output, stop };
}

function mtimes(dir: string, files: string[]): number[] {
  return files.map((file) => fs.statSync(path.join(dir, file)).mtimeMs);
}

describe('npm start on a built clone', () => {
  const running: Started[] = [];
  after(async () => {
    for (const server of running) await server.stop();
  });

  it('starts the built server without building', async (t) => {
    const check = spawnSync(process.execPath, ['scripts/build-if-stale.mjs', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(check.status, 0, `the repository's build is not up to date (run npm run build first): ${check.stdout}`);
    const built = ['dist/main.js', 'dist/web-app/index.html'];
    const before = mtimes(ROOT, built);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-start-'));
    const server = await npmStart(ROOT, { DATABASE_URL: `sqlite:${path.join(dir, 'brief.db')}` }, '/v2/shorten-domains');
    running.push(server);
    t.diagnostic(`first answer after npm start: ${server.seconds.toFixed(2)} s`);
    assert.deepEqual(mtimes(ROOT, built), before, 'nothing was built again');
    assert.doesNotMatch(server.output(), /brief: building/);
    await server.stop();
  });

  it('leaves dist/main.js, the `brief` command, executable (npm links it before the build exists)', () => {
    // On a scratch build (--root), never this checkout's: other suites run `npx brief` meanwhile, and a moment of
    // 0644 on the real dist/main.js made one of them fail with "brief: Permission denied".
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-stamp-fixture-'));
    try {
      fs.mkdirSync(path.join(dir, 'dist'));
      fs.writeFileSync(path.join(dir, 'dist/main.js'), '#!/usr/bin/env node\n', { mode: 0o644 });
      fs.copyFileSync(path.join(ROOT, 'package-lock.json'), path.join(dir, 'package-lock.json'));
      const stamp = spawnSync(process.execPath, ['scripts/build-if-stale.mjs', '--stamp', '--root', dir], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(stamp.status, 0, stamp.stderr);
      assert.equal(fs.statSync(path.join(dir, 'dist/main.js')).mode & 0o777, 0o755);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds first when a source is newer than the build, the dependencies changed, or the build is missing', async () => {
    // A clone in miniature: the real prepare and start scripts and staleness check, a build that counts its runs.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-start-fixture-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    };
    write('scripts/build-if-stale.mjs', fs.readFileSync(path.join(ROOT, 'scripts/build-if-stale.mjs'), 'utf8'));
    write(
      'build.mjs',
      `import fs from 'node:fs';
fs.mkdirSync('dist/web-app', { recursive: true });
fs.writeFileSync('dist/web-app/index.html', '<!doctype html>');
fs.writeFileSync('dist/main.js', "import http from 'node:http'; http.createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), '127.0.0.1');");
fs.appendFileSync('builds.txt', 'x');
`,
    );
    // The real scripts, with the build's own steps (tsc, vite) replaced by build.mjs.
    const build = PACKAGE.scripts.build.replace(/^.*?&& (node scripts\/build-if-stale\.mjs --stamp)$/, 'node build.mjs && $1');
    assert.match(build, /^node build\.mjs && node scripts\/build-if-stale\.mjs --stamp$/, 'npm run build ends by recording the lockfile');
    write(
      'package.json',
      JSON.stringify({
        name: 'fixture',
        version: '1.0.0',
        private: true,
        type: 'module',
        scripts: { build, prepare: PACKAGE.scripts.prepare, start: PACKAGE.scripts.start },
      }),
    );
    write('src/main.ts', 'export {};\n');
    write('web/index.html', '<!doctype html>\n');
    write('tsconfig.json', '{}\n');
    write('vite.config.ts', 'export default {};\n');
    const builds = () => (fs.existsSync(path.join(dir, 'builds.txt')) ? fs.readFileSync(path.join(dir, 'builds.txt'), 'utf8').length : 0);
    const past = new Date(Date.now() - 60_000);
    for (const file of ['src/main.ts', 'web/index.html', 'tsconfig.json', 'vite.config.ts']) fs.utimesSync(path.join(dir, file), past, past);
    const startOnce = async () => {
      const server = await npmStart(dir, {}, '/');
      running.push(server);
      await server.stop();
      return server.output();
    };
    const npmInstall = () => {
      const run = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
      assert.equal(run.status, 0, run.stdout + run.stderr);
      return run.stdout + run.stderr;
    };

    // npm install builds a clone without a build (prepare), and not again when nothing changed, although
    // it rewrites package-lock.json each time.
    assert.match(npmInstall(), /brief: building \(dist\/main\.js is missing\)/);
    assert.equal(builds(), 1);
    assert.ok(fs.existsSync(path.join(dir, 'package-lock.json')));
    npmInstall();
    assert.equal(builds(), 1, 'a second install does not build');
    assert.doesNotMatch(await startOnce(), /building/);
    assert.equal(builds(), 1, 'a built clone starts without building');

    // Touched after the last build finished: newer than the build.
    const touch = (file: string) => fs.utimesSync(path.join(dir, file), new Date(), new Date());
    touch('src/main.ts');
    assert.match(await startOnce(), /brief: building \(src\/main\.ts is newer than the build\)/);
    assert.equal(builds(), 2);

    touch('web/index.html');
    await startOnce();
    assert.equal(builds(), 3, 'a web source counts too');

    touch('vite.config.ts');
    await startOnce();
    assert.equal(builds(), 4, 'so do the build configuration files');
    assert.doesNotMatch(await startOnce(), /building/);
    assert.equal(builds(), 4);

    // The dependencies: by the lockfile's content, not its time.
    touch('package-lock.json');
    assert.doesNotMatch(await startOnce(), /building/);
    const lock = JSON.parse(fs.readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
    fs.writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ ...lock, version: '1.0.1' }));
    assert.match(await startOnce(), /brief: building \(package-lock\.json changed since the build\)/);
    assert.equal(builds(), 5);

    fs.rmSync(path.join(dir, 'dist/web-app/index.html'));
    assert.match(await startOnce(), /brief: building \(dist\/web-app\/index\.html is missing\)/);
    assert.equal(builds(), 6);
  });
});
