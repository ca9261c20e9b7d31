// The server's build (scripts/build-server.mjs, run by `npm test` before the tests): dist/main.js, the worker
// threads beside it (where src/storage/sqlite/background.ts, src/passwords/password-threads.ts and
// src/qr/qr-service.ts look for them) and the chunks they share in dist/chunks/. Together they import no file of
// Brief's by path but each other, only Node's modules and the packages left outside on purpose; and the HTTP
// server is a chunk that only `brief serve` loads, so an admin command never loads Fastify.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { threadScript } from '../../src/thread-scripts.js';

const DIST = path.join(PACKAGE_ROOT, 'dist');
const ENTRIES = ['main.js', 'background-thread.js', 'password-worker.js', 'qr-worker.js'];

/** What an ES module file imports: static `import … from` and bare `import '…'`, and `import('…')` with a literal (comments left out). */
function importsOf(file: string): { static: string[]; dynamic: string[] } {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const code = lines.filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line)).join('\n');
  return {
    static: [...code.matchAll(/^(?:import|export)\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']/gm)].map((match) => match[1]!),
    dynamic: [...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]!),
  };
}

const isOwn = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');

/** The files of the build a file loads when it is loaded, itself included: its static imports of the build, and theirs. */
function loadedWith(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const specifier of importsOf(file).static.filter(isOwn)) loadedWith(path.resolve(path.dirname(file), specifier), seen);
  return seen;
}

describe('the server build', () => {
  it('imports only its own files, Node modules and the packages kept outside the bundle', async () => {
    const { EXTERNAL } = (await import(pathToFileURL(path.join(PACKAGE_ROOT, 'scripts/build-server.mjs')).href)) as { EXTERNAL: string[] };
    const chunks = fs.readdirSync(path.join(DIST, 'chunks')).filter((name) => name.endsWith('.js'));
    assert.ok(chunks.length > 0, 'chunks are built');
    for (const entry of [...ENTRIES, ...chunks.map((name) => `chunks/${name}`)]) {
      const file = path.join(DIST, entry);
      assert.ok(fs.existsSync(file), `${entry} is built`);
      const { static: loaded, dynamic } = importsOf(file);
      for (const specifier of [...loaded, ...dynamic]) {
        const allowed =
          specifier.startsWith('node:') ||
          EXTERNAL.some((name) => specifier === name || specifier.startsWith(`${name}/`)) ||
          (isOwn(specifier) && fs.existsSync(path.resolve(path.dirname(file), specifier)));
        assert.ok(allowed, `${entry} imports ${specifier}`);
      }
    }
    assert.deepEqual(
      fs
        .readdirSync(DIST)
        .filter((name) => fs.statSync(path.join(DIST, name)).isDirectory())
        .sort(),
      ['chunks', 'web-app'],
      'no unbundled tree',
    );
  });

  it('leaves the HTTP server to a chunk only `brief serve` imports, so the admin commands never load Fastify', () => {
    const main = path.join(DIST, 'main.js');
    const { dynamic } = importsOf(main);
    const server = dynamic.map((specifier) => path.resolve(DIST, specifier)).filter((file) => /fastify/i.test(fs.readFileSync(file, 'utf8')));
    assert.equal(server.length, 1, `main.js imports the server's chunk when asked: ${dynamic.join()}`);
    assert.match(fs.readFileSync(server[0]!, 'utf8'), /FST_ERR_/);
    for (const file of loadedWith(main)) {
      assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /FST_ERR_/, `${path.relative(DIST, file)}, loaded with main.js, holds Fastify`);
    }
  });

  it("finds each worker thread's script from whichever file of the build starts it, a chunk's included", () => {
    for (const from of ['main.js', 'chunks/any-chunk.js']) {
      for (const name of ['background-thread', 'password-worker', 'qr-worker']) {
        const script = threadScript(pathToFileURL(path.join(DIST, from)).href, name);
        assert.equal(script.href, pathToFileURL(path.join(DIST, `${name}.js`)).href);
        assert.ok(fs.existsSync(script), `${name}.js is built`);
      }
    }
  });

  it('finds the package root from src/ (and the bundle finds the same one from dist/)', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name: string };
    assert.equal(manifest.name, 'brief');
    const loaded = [...loadedWith(path.join(DIST, 'main.js'))].map((file) => fs.readFileSync(file, 'utf8'));
    assert.ok(
      loaded.some((code) => /findPackageRoot/.test(code)),
      'main.js loads findPackageRoot',
    );
  });
});
