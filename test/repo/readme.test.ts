// The README is the front door (issue 38): what Brief is, the two commands, the quick start, the clients and
// where to read on, in at most 300 lines; the manual is in docs/. CI and people read its first lines.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const LINES = README.trimEnd().split('\n');

describe('the README', () => {
  it('is at most 300 lines', () => {
    assert.ok(LINES.length <= 300, `README.md has ${LINES.length} lines: move a section to a page of docs/ and link it`);
  });

  it('opens with the title and the two commands', () => {
    assert.equal(LINES[0], '# Brief');
    const block = LINES.slice(0, 10).join('\n');
    assert.match(block, /```sh\nnpm install && npm start +# .*\nnpm test +# .*\n```/);
  });
});
