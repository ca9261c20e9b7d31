// The kind of a test file (scripts/test-kinds.ts): its suite's folder, or beside the code it tests its name, which
// must say what it starts: `test:unit` runs no file that starts the app or a process, `test:http` the in-process
// app suites, and every file of test/ is in exactly one kind, so `npm test` runs each once.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { classify, KINDS, testFiles } from '../../scripts/test-kinds.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

const USES_APP = "import { BASE_HOST, useTestApp } from '../support/app.js';\n";
const BUILDS_APP = "import { buildApp } from '../../src/app.js';\n";
const RUNS_CLI = "import { runCli } from '../scale-support/server-process.js';\n";
const kindOf = (file: string, source = '') => {
  const classified = classify(file, source);
  return 'kind' in classified ? classified.kind : classified.problem;
};

describe('the kind of a test file', () => {
  it('is unit for NAME.test.ts, http for NAME.http.test.ts, e2e for NAME.e2e.test.ts, at any depth', () => {
    assert.equal(kindOf('test/links/codes.test.ts'), 'unit');
    assert.equal(kindOf('test/links/shorten.http.test.ts', USES_APP), 'http');
    assert.equal(kindOf('test/http/connection-limits.http.test.ts', BUILDS_APP), 'http');
    assert.equal(kindOf('test/people/sso/routes.http.test.ts', USES_APP.replace('../', '../../')), 'http');
    assert.equal(kindOf('test/import/round-trip.e2e.test.ts', RUNS_CLI), 'e2e');
  });

  it("is its folder's in the suites of no single file, whatever they start", () => {
    assert.equal(kindOf('test/e2e/core.test.ts', RUNS_CLI), 'e2e');
    assert.equal(kindOf('test/bench/harness.test.ts'), 'e2e');
    assert.equal(kindOf('test/browser/web-app.test.ts'), 'browser');
    assert.equal(kindOf('test/scale/rate-limits-redis.test.ts', USES_APP), 'postgres');
  });

  it('is none for a name that says the wrong kind, or none at all', () => {
    assert.match(kindOf('test/links/shorten.test.ts', USES_APP), /starts the app in-process: name it NAME\.http\.test\.ts/);
    assert.match(kindOf('test/health/probes.test.ts', BUILDS_APP), /NAME\.http\.test\.ts/);
    assert.match(kindOf('test/import/round-trip.test.ts', RUNS_CLI), /as a process: name it NAME\.e2e\.test\.ts/);
    assert.match(kindOf('test/import/round-trip.http.test.ts', RUNS_CLI + USES_APP), /NAME\.e2e\.test\.ts/);
    assert.match(kindOf('test/links/codes.http.test.ts'), /starts no app/);
    assert.match(kindOf('test/import/csv-cells.e2e.test.ts'), /starts no process/);
    assert.match(kindOf('test/links/codes.unit.test.ts'), /says "\.unit"/);
    assert.match(kindOf('test/links/codes.constructor.test.ts'), /says "\.constructor"/);
    assert.match(kindOf('test/links/codes.v3.http.test.ts', USES_APP), /neither form/);
    assert.match(kindOf('test/e2e/core.e2e.test.ts', RUNS_CLI), /drop the "\.e2e"/);
  });

  it('is none outside the folder of what a file tests', () => {
    assert.match(kindOf('test/codes.test.ts'), /in no folder of test\//);
    assert.match(kindOf('test/support/app.test.ts'), /holds helpers/);
    assert.equal(kindOf('test/constructor/x.test.ts'), 'unit', 'a folder named like a property of every object is no suite');
    assert.match(kindOf('test/scale-support/proxy.test.ts'), /holds helpers/);
  });

  it('is judged by what a file imports to start things, not by what else it takes from the same module', () => {
    assert.equal(kindOf('test/links/names.test.ts', "import { uniqueName, type TestApp } from '../support/app.js';\n"), 'unit');
    assert.equal(kindOf('test/links/names.test.ts', "import type { TestApp, useTestApp } from '../support/app.js';\n"), 'unit');
    assert.equal(kindOf('test/people/sso/routes.http.test.ts', `${USES_APP}import { freePort } from '../../support/process.js';\n`), 'http');
    assert.equal(
      kindOf('test/links/many.http.test.ts', "import {\n  BASE_HOST,\n  useTestApp as app,\n} from '../support/app.js';\n"),
      'http',
      'an import over several lines, renamed',
    );
  });
});

describe("the repository's test files", () => {
  const files = testFiles(ROOT);

  it('each have a kind', () => {
    const problems = files.flatMap((entry) => ('problem' in entry ? [`${entry.file} ${entry.problem}`] : []));
    assert.deepEqual(problems, []);
  });

  it('fill every kind', () => {
    const kinds = new Set(files.flatMap((entry) => ('kind' in entry ? [entry.kind] : [])));
    assert.deepEqual([...kinds].sort(), [...KINDS].sort());
    assert.ok(files.length > 150, `${files.length} files`);
  });
});
