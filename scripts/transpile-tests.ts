// The test run's JavaScript (scripts/run-tests.ts): every TypeScript file a test can import, transpiled once a run
// by esbuild into .test-build/ at the same relative path, so that each test process loads plain ES modules.
//
// Why: under Node 20 a TypeScript loader (tsx) runs as module hooks on a thread of its own, and every module a
// process loads, each of the ~650 CommonJS files of its packages included, goes through it: loading the app cost a
// test process ~5.5 s of CPU that way and ~2 s from these files, out of ~1,550 s for the whole suite's ~175 files.
//
// What stays true of each file as it was:
// - `import.meta.url`, `dirname` and `filename` are the TypeScript file's own, so what a module finds beside itself
//   (fixtures, the package root, a worker thread's source, README.md) is found where it always was;
// - imports between these files are relative, so `./x.js` names x.ts's output beside it; packages are found in
//   node_modules above .test-build/, as for the sources;
// - the esbuild options are tsx's (whitespace folded, names kept) and each file carries its source map, so stack
//   traces, `fn.name` and the coverage of src/ read as they did under tsx, line for line.
// A file run alone (`node --import tsx --test test/x.test.ts`) needs none of this.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

/** The folders whose TypeScript a test may import (web/src for the modules the web app shares with tests). */
const FOLDERS = ['src', 'test', 'web/src', 'scripts', 'bench', 'harness'];

export const TEST_BUILD = '.test-build';

/** Where the JavaScript of `file` (a path relative to the root, `.ts` or `.tsx`) is, relative to the root. */
export function builtPath(file: string): string {
  return path.join(TEST_BUILD, file.replace(/\.tsx?$/, '.js'));
}

/** Transpiles the folders' TypeScript (not declarations) into root/.test-build/, emptied first. */
export async function transpileTests(root: string): Promise<number> {
  const out = path.join(root, TEST_BUILD);
  fs.rmSync(out, { recursive: true, force: true });
  const files = FOLDERS.flatMap((folder) => typeScriptIn(path.join(root, folder)));
  await Promise.all(
    files.map(async (file) => {
      const { code } = await transform(fs.readFileSync(file, 'utf8'), {
        loader: file.endsWith('.tsx') ? 'tsx' : 'ts',
        jsx: 'automatic',
        format: 'esm',
        target: 'node20',
        tsconfigRaw: { compilerOptions: { target: 'ES2022' } },
        minifyWhitespace: true,
        keepNames: true,
        sourcemap: 'inline',
        sourcesContent: true,
        sourcefile: file,
        define: {
          'import.meta.url': JSON.stringify(pathToFileURL(file).href),
          'import.meta.dirname': JSON.stringify(path.dirname(file)),
          'import.meta.filename': JSON.stringify(file),
        },
      });
      const target = path.join(root, builtPath(path.relative(root, file)));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, code);
    }),
  );
  return files.length;
}

function typeScriptIn(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const file = path.join(entry.parentPath, entry.name);
    return entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !file.includes(`${path.sep}node_modules${path.sep}`)
      ? [file]
      : [];
  });
}
