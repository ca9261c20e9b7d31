// docs/layout.md says what each folder holds (issue 38): it stays true as folders come and go. Every folder
// under src/, at any depth, has a row of its own; every path the page names exists; every file a folder's row
// names is in that folder. A failure lists every folder and name to add, rename or remove.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PAGE = 'docs/layout.md';

/** The repository's files as git sees them (tracked, and new ones not ignored): an emptied folder is no folder. */
function repositoryFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return listed.split('\0').filter((file) => file && fs.existsSync(path.join(ROOT, file)));
}

/** Every folder under src/ holding a file, at any depth, as `src/a/b/`. */
function srcFolders(): string[] {
  const folders = new Set<string>();
  for (const file of repositoryFiles().filter((name) => name.startsWith('src/'))) {
    const parts = file.split('/').slice(0, -1);
    for (let depth = 2; depth <= parts.length; depth++) folders.add(`${parts.slice(0, depth).join('/')}/`);
  }
  return [...folders].sort();
}

interface Row {
  readonly line: number;
  /** The first cell's path, as `src/a/`. */
  readonly folder: string;
  /** The rest of the row. */
  readonly text: string;
}

const page = fs.readFileSync(path.join(ROOT, PAGE), 'utf8');
const pageLines = page.split('\n');

/** The table rows whose first cell is one folder under src/, `| \`src/a/\` | … |`. */
const folderRows: Row[] = pageLines.flatMap((line, index) => {
  const row = /^\|\s*`(src\/(?:[^`|]*\/)?)`\s*\|(.*)$/.exec(line);
  return row ? [{ line: index + 1, folder: row[1]!, text: row[2]! }] : [];
});

/** Backquoted names on a line. */
const quoted = (text: string) => [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);

/** A backquoted path from the repository's root: it starts with one of the folders this page describes. */
const ROOTS = /^(?:src|web|test|bench|harness|scripts|docs|\.ci)\//;

describe('docs/layout.md', () => {
  it('has a row for every folder under src/', () => {
    const named = new Set(folderRows.map((row) => row.folder));
    const missing = srcFolders().filter((folder) => !named.has(folder));
    assert.deepEqual(
      missing,
      [],
      `${PAGE} has no row for ${missing.join(', ')}: add a row for each to its src/ table (the folder in backquotes, then what it holds)`,
    );
  });

  it('names only paths that exist', () => {
    const stale = pageLines.flatMap((line, index) =>
      quoted(line)
        .filter((name) => ROOTS.test(name))
        .filter((name) => !fs.existsSync(path.join(ROOT, name)) || (name.endsWith('/') && !fs.statSync(path.join(ROOT, name)).isDirectory()))
        .map((name) => `${name} (line ${index + 1})`),
    );
    assert.deepEqual(stale, [], `${PAGE} names what does not exist: ${stale.join(', ')}: rename or remove it`);
  });

  it("names in a folder's row only files of that folder", () => {
    const stale = folderRows.flatMap((row) =>
      quoted(row.text)
        .filter((name) => /^[\w.-]+\.(?:ts|tsx|mjs|cjs|js)$/.test(name))
        .filter((name) => !fs.existsSync(path.join(ROOT, row.folder, name)))
        .map((name) => `${name} in the row of ${row.folder} (line ${row.line})`),
    );
    assert.deepEqual(stale, [], `${PAGE} names files its folders do not hold: ${stale.join(', ')}: move the name to its folder's row, or remove it`);
  });

  it('has one row a folder', () => {
    const seen = new Set<string>();
    const twice = folderRows.filter((row) => seen.has(row.folder) || !seen.add(row.folder)).map((row) => `${row.folder} (line ${row.line})`);
    assert.deepEqual(twice, [], `${PAGE} has a second row for ${twice.join(', ')}`);
  });
});
