// Zero EBADENGINE warnings from `npm ci` (issue 25 item 3, decision 0016): every package the lockfile
// installs accepts the oldest Node.js package.json promises and the one running the tests. Read from the
// lockfile by scripts/check-engines.mjs (`npm run check:engines`), so no install is needed here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SCRIPT = path.join(ROOT, 'scripts/check-engines.mjs');

function check(...args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { code: run.status, out: run.stdout + run.stderr };
}

function fixture(promised: string, packages: Record<string, { version: string; engines?: { node: string } }>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-engines-'));
  const lock = path.join(dir, 'package-lock.json');
  const manifest = path.join(dir, 'package.json');
  fs.writeFileSync(lock, JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' }, ...packages } }));
  fs.writeFileSync(manifest, JSON.stringify({ name: 'x', engines: { node: promised } }));
  return [lock, manifest];
}

describe('engines', () => {
  it('every package in package-lock.json accepts the oldest promised Node.js and this one', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.ok(semver.satisfies('20.19.0', manifest.engines.node), 'Node 20 stays supported');
    const result = check();
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /accepts node 20\.19\.0/);
  });

  it('names each package that would warn, and fails', () => {
    const result = check(
      ...fixture('>=20', {
        'node_modules/ok': { version: '1.0.0', engines: { node: '>=18' } },
        'node_modules/a/node_modules/cookie': { version: '2.0.2', engines: { node: '>=22' } },
        'node_modules/none': { version: '1.0.0' },
      }),
    );
    assert.equal(result.code, 1);
    assert.match(result.out, /cookie@2\.0\.2 wants node >=22, not 20\.0\.0/);
    assert.doesNotMatch(result.out, /\bok@|none@/);
  });

  it('checks the oldest version package.json promises, not only the running one', () => {
    const result = check(...fixture('>=20', { 'node_modules/vite': { version: '8.0.0', engines: { node: '^20.19.0 || >=22.12.0' } } }));
    assert.equal(result.code, 1);
    assert.match(result.out, /vite@8\.0\.0 wants node \^20\.19\.0 \|\| >=22\.12\.0, not 20\.0\.0/);
  });
});
