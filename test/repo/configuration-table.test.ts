// docs/configuration.md has a row for every environment variable src/config.ts reads, and no row for one it
// does not (the table moved there from the README, issue 38): a new setting is documented where people look.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = 'docs/configuration.md';

/** The variables config.ts reads: `env.NAME`, and the helpers' `(env, 'NAME'` and `('NAME', env`. */
function readVariables(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  const names = [...source.matchAll(/env\.([A-Z][A-Z0-9_]+)|\(env, '([A-Z][A-Z0-9_]+)'|'([A-Z][A-Z0-9_]+)', env\b/g)];
  return [...new Set(names.map((match) => (match[1] ?? match[2] ?? match[3])!))].sort();
}

/** The first cells of the table's rows, `| \`NAME\` | default | meaning |`. */
function documentedVariables(): string[] {
  const page = fs.readFileSync(path.join(ROOT, PAGE), 'utf8');
  return [...page.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]!).sort();
}

describe('the configuration table', () => {
  it('finds the variables config.ts reads', () => {
    const read = readVariables();
    for (const name of ['PORT', 'BASE_URL', 'DATABASE_URL', 'RATE_LIMIT_QR', 'OIDC_ISSUER']) assert.ok(read.includes(name), name);
  });

  it(`has a row in ${PAGE} for every variable, and none for a variable no longer read`, () => {
    const read = readVariables();
    const documented = documentedVariables();
    const missing = read.filter((name) => !documented.includes(name));
    const stale = documented.filter((name) => !read.includes(name));
    assert.deepEqual(missing, [], `src/config.ts reads ${missing.join(', ')}, which ${PAGE} has no row for: add its default and meaning`);
    assert.deepEqual(stale, [], `${PAGE} has a row for ${stale.join(', ')}, which src/config.ts does not read`);
    assert.equal(new Set(documented).size, documented.length, `${PAGE} has one row a variable`);
  });
});
