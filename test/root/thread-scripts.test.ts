// A worker thread's script from source (src/thread-scripts.ts): bundled once, and made again only when a file it is
// made of changes.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { bundleFromSource } from '../../src/thread-scripts.js';

const CACHE = path.join(PACKAGE_ROOT, 'node_modules/.cache/brief-threads');

describe('bundleFromSource', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-thread-'));
  const name = `probe-${randomBytes(4).toString('hex')}-thread`;
  const source = path.join(dir, `${name}.ts`);
  const dependency = path.join(dir, 'answer.ts');
  fs.writeFileSync(source, "import { answer } from './answer.js';\nexport const reply = (n: number): number => n + answer;\n");
  fs.writeFileSync(dependency, 'export const answer = 41;\n');
  const made = () => fs.readdirSync(CACHE).filter((file) => file.startsWith(`${name}-`));
  const manifest = () => path.join(CACHE, made().find((file) => file.endsWith('.json'))!);
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    for (const file of made()) fs.rmSync(path.join(CACHE, file), { force: true });
  });

  it('bundles the source with what it imports, and uses the bundle again while its files are unchanged', async () => {
    const first = bundleFromSource(source);
    assert.equal((await import(first.href)).reply(1), 42);
    const written = fs.statSync(manifest()).mtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(bundleFromSource(source).href, first.href);
    assert.equal(fs.statSync(manifest()).mtimeMs, written, 'the manifest was written again: the source was bundled again');
  });

  it('bundles again when a file it imports changes', async () => {
    const before = bundleFromSource(source);
    fs.writeFileSync(dependency, 'export const answer = 1_000;\n');
    const after = bundleFromSource(source);
    assert.notEqual(after.href, before.href);
    assert.match(fs.readFileSync(fileURLToPath(after), 'utf8'), /1e3|1000|1_000/);
    assert.equal((await import(after.href)).reply(1), 1001);
  });
});
