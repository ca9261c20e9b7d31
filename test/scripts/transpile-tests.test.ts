// The test run's JavaScript (scripts/transpile-tests.ts): each TypeScript file at the same path under .test-build/,
// importing its neighbours' output, and still seeing itself where its source is.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { builtPath, TEST_BUILD, transpileTests } from '../../scripts/transpile-tests.js';

describe('transpileTests', () => {
  let root: string;
  let count: number;

  before(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-transpile-'));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('package.json', '{ "type": "module" }\n');
    write(
      'src/where.ts',
      [
        "import { twice } from './maths/twice.js';",
        'export class Named { constructor(private readonly n: number) {} get doubled(): number { return twice(this.n); } }',
        'export const here = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };',
        'export function fails(): never { throw new Error("here"); }',
      ].join('\n'),
    );
    write('src/maths/twice.ts', 'export const twice = (n: number): number => n * 2;\n');
    write('src/types.d.ts', 'declare const nothing: number;\n');
    write('test/where.test.ts', "export { here } from '../src/where.js';\n");
    write('docs/skipped.ts', 'export const no = 1;\n');
    fs.mkdirSync(path.join(root, TEST_BUILD, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, TEST_BUILD, 'src/stale.js'), 'export const stale = 1;\n');
    count = await transpileTests(root);
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes each .ts of the folders tests import at its own path as .js, and no declaration or other folder', () => {
    assert.equal(builtPath('test/links/codes.test.ts'), path.join(TEST_BUILD, 'test/links/codes.test.js'));
    assert.equal(count, 3);
    const written = fs.readdirSync(path.join(root, TEST_BUILD), { recursive: true }).map(String).sort();
    assert.deepEqual(written, ['src', 'src/maths', 'src/maths/twice.js', 'src/where.js', 'test', 'test/where.test.js']);
  });

  it("runs as plain JavaScript, importing its neighbours' output, with the source's import.meta", async () => {
    const where = await import(pathToFileURL(path.join(root, builtPath('src/where.ts'))).href);
    assert.equal(new where.Named(21).doubled, 42);
    assert.equal(where.Named.name, 'Named');
    const source = path.join(root, 'src/where.ts');
    assert.deepEqual(where.here, { url: pathToFileURL(source).href, dirname: path.dirname(source), filename: source });
    const test = await import(pathToFileURL(path.join(root, builtPath('test/where.test.ts'))).href);
    assert.equal(test.here, where.here);
  });

  it('carries a source map naming the TypeScript file', () => {
    const code = fs.readFileSync(path.join(root, builtPath('src/where.ts')), 'utf8');
    const map = JSON.parse(Buffer.from(code.split('sourceMappingURL=data:application/json;base64,')[1]!, 'base64').toString('utf8'));
    assert.ok(
      map.sources.some((source: string) => source.endsWith('src/where.ts')),
      map.sources.join(),
    );
    assert.match(map.sourcesContent[0], /import\.meta\.filename/);
  });
});
