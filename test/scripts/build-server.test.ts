// The server's build (scripts/build-server.mjs, run by `npm test` before the tests) is one bundle: dist/main.js
// imports no file of its own by path, only Node's modules and the packages left outside on purpose, and
// the worker threads sit beside it, where src/storage/sqlite/background.ts, src/passwords/password-threads.ts and
// src/qr/qr-service.ts look for them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../../src/package-root.js';

const DIST = path.join(PACKAGE_ROOT, 'dist');

/** What an ES module file imports: static `import … from`, bare `import '…'` and `import('…')` with a literal (comments left out). */
function importsOf(file: string): string[] {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const code = lines.filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line)).join('\n');
  const found = [...code.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm), ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)];
  return found.map((match) => match[1]!);
}

describe('the server build', () => {
  it('is one file that imports only Node modules and the packages kept outside the bundle', async () => {
    const { EXTERNAL } = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'scripts/build-server.mjs')).href)) as { EXTERNAL: string[] };
    for (const entry of ['main.js', 'background-thread.js', 'password-worker.js', 'qr-worker.js']) {
      const file = path.join(DIST, entry);
      assert.ok(fs.existsSync(file), `${entry} is built`);
      for (const specifier of importsOf(file)) {
        const allowed = specifier.startsWith('node:') || EXTERNAL.some((name) => specifier === name || specifier.startsWith(`${name}/`));
        assert.ok(allowed, `${entry} imports ${specifier}`);
      }
    }
    assert.equal(
      fs
        .readdirSync(DIST)
        .filter((name) => fs.statSync(path.join(DIST, name)).isDirectory())
        .join(),
      'web-app',
      'no unbundled tree',
    );
  });

  it('finds the package root from src/ (and the bundle finds the same one from dist/)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string };
    assert.equal(manifest.name, 'brief');
    assert.match(fs.readFileSync(path.join(DIST, 'main.js'), 'utf8'), /findPackageRoot/);
  });
});
