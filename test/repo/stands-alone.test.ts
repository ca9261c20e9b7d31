// The repository stands alone (issue 25 item 4): the interface descriptions are in docs/api/, and no
// file points into a sibling folder outside it, where a clone has nothing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Spelled in pieces, so this file does not name it.
const OUTSIDE = ['..', 'shared', ''].join('/');

/** The repository's files: tracked, and new ones git does not ignore (so node_modules, dist and data are out). */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file && fs.existsSync(path.join(ROOT, file)));
}

describe('the repository stands alone', () => {
  it(`no file mentions ${OUTSIDE}`, () => {
    const files = repositoryFiles();
    assert.ok(files.includes('README.md') && files.includes('src/main.ts'), 'the file list is the repository');
    const naming = files.filter((file) => fs.readFileSync(path.join(ROOT, file)).includes(OUTSIDE));
    assert.deepEqual(naming, []);
  });

  it('describes both interfaces in docs/api, and the README links them', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const page of ['docs/api/v2.md', 'docs/api/v3.md']) {
      assert.ok(fs.statSync(path.join(ROOT, page)).size > 2000, page);
      assert.ok(readme.includes(`](${page})`), `the README links ${page}`);
    }
  });
});
