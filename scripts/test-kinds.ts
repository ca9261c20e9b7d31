// The kind of each test file (`npm run test:<kind>`), read off its path, and checked against what the file starts.
// scripts/run-tests.ts runs the files of the kinds asked for, and will not start while a file has no kind or a name
// that says the wrong one (docs/testing.md, "Kinds"). Tests live where their code is, so a folder of a feature holds
// tests of several kinds side by side; its files' names tell them apart:
//
//   test/FOLDER/NAME.test.ts        unit: a module in-process (a store on a real database at most)
//   test/FOLDER/NAME.http.test.ts   http: the whole app in-process (useTestApp or buildTestApp, or buildApp itself)
//   test/FOLDER/NAME.e2e.test.ts    e2e: the built CLI or server as a process (runCli, startServer, ServerProcess, MAIN)
//
// The suites that check no single file keep a folder of their own, and there the folder is the kind (SUITE_FOLDERS).
import fs from 'node:fs';
import path from 'node:path';

export const KINDS = ['unit', 'http', 'postgres', 'browser', 'e2e'] as const;
export type Kind = (typeof KINDS)[number];

/** The folders of test/ whose every file is of one kind, whatever it starts; their files are named plainly, NAME.test.ts. */
export const SUITE_FOLDERS: Readonly<Record<string, Kind>> = {
  e2e: 'e2e',
  bench: 'e2e',
  browser: 'browser',
  scale: 'postgres',
};

/** Folders of helpers, shared by every suite: no test file lives there. */
export const HELPER_FOLDERS: readonly string[] = ['support', 'scale-support'];

/** Outside SUITE_FOLDERS, the kind a name's last part before `.test.ts` says; a name without one is unit. */
const NAMED_KINDS: Readonly<Record<string, Kind>> = { http: 'http', e2e: 'e2e' };

/**
 * What starts the app in-process, and what starts the built CLI or server as a process: the names a test file
 * imports from these modules (by the end of the import's path). A type-only import starts nothing.
 */
const STARTERS = {
  app: { 'support/app.js': ['useTestApp', 'buildTestApp'], 'src/app.js': ['buildApp'] },
  process: { 'support/process.js': ['runCli', 'startServer', 'MAIN'], 'scale-support/server-process.js': ['runCli', 'ServerProcess'] },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type Classified = { readonly file: string; readonly kind: Kind } | { readonly file: string; readonly problem: string };

/** The names a module imports by `import { a, b as c } from '…'`, each with the path it imports them from (not `import type`). */
function imported(source: string): { readonly from: string; readonly names: string[] }[] {
  return [...source.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/gm)]
    .filter((match) => match[1] === undefined)
    .map((match) => ({
      from: match[3]!,
      names: match[2]!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type '))
        .map((name) => name.split(/\s+as\s+/)[0]!),
    }));
}

function starts(source: string, what: keyof typeof STARTERS): boolean {
  const modules: Readonly<Record<string, readonly string[]>> = STARTERS[what];
  return imported(source).some(({ from, names }) =>
    Object.entries(modules).some(([module, starters]) => from.endsWith(`/${module}`) && names.some((name) => starters.includes(name))),
  );
}

/** The kind of one test file, from its path under the root (`test/links/shorten.http.test.ts`) and its source; or why it has none. */
export function classify(file: string, source: string): Classified {
  const parts = file.split('/');
  const name = parts.at(-1)!;
  const folder = parts[1]!;
  const problem = (why: string): Classified => ({ file, problem: why });
  if (parts[0] !== 'test' || parts.length < 3) return problem('is in no folder of test/: put it in the folder of what it tests');
  if (HELPER_FOLDERS.includes(folder)) return problem(`is in test/${folder}/, which holds helpers: put it in the folder of what it tests`);
  const named = /^[^.]+(?:\.([^.]+))?\.test\.ts$/.exec(name);
  if (!named) return problem('has a name of neither form NAME.test.ts nor NAME.KIND.test.ts');
  const said = named[1];
  const suite = Object.hasOwn(SUITE_FOLDERS, folder) ? SUITE_FOLDERS[folder] : undefined;
  if (suite !== undefined) {
    if (said !== undefined) return problem(`is in test/${folder}/, where every file is ${suite} and named NAME.test.ts: drop the ".${said}"`);
    return { file, kind: suite };
  }
  if (said !== undefined && !Object.hasOwn(NAMED_KINDS, said)) {
    return problem(`says ".${said}", no kind a name can say (.http, .e2e; NAME.test.ts is unit)`);
  }
  const kind = said === undefined ? 'unit' : NAMED_KINDS[said]!;
  const app = starts(source, 'app');
  const spawns = starts(source, 'process');
  if (spawns && kind !== 'e2e') return problem('starts the built CLI or server as a process: name it NAME.e2e.test.ts');
  if (app && kind === 'unit') return problem('starts the app in-process: name it NAME.http.test.ts');
  if (kind === 'http' && !app) return problem('is named .http but starts no app (useTestApp, buildTestApp, buildApp): name it NAME.test.ts');
  if (kind === 'e2e' && !spawns) return problem('is named .e2e but starts no process (runCli, startServer, ServerProcess, MAIN)');
  return { file, kind };
}

/** Every test file under test/ (any depth), classified, by path. */
export function testFiles(root: string): Classified[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory() && entry.name !== 'node_modules') walk(child);
      else if (entry.isFile() && entry.name.endsWith('.test.ts')) found.push(child);
    }
  };
  walk('test');
  return found.sort().map((file) => classify(file, fs.readFileSync(path.join(root, file), 'utf8')));
}
