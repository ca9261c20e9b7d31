// Where a worker thread's script is: beside the module that starts it. Built, the .js file esbuild wrote
// beside dist/main.js (scripts/build-server.mjs). From source (the tests, under tsx), the .ts file bundled
// on first use by esbuild as the build bundles it: Node 20 does not hand the process's loader hooks to a
// worker, and a thread that registers tsx itself starts a loader thread of its own and loads each of its
// modules through it, about 1.3 s of CPU for the SQLite thread's ~500, where the bundle costs ~0.1 s once
// a process and loads in a few milliseconds a thread.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from './package-root.js';

/** Bundles made in this process, by source file. */
const bundles = new Map<string, URL>();

/** The script of thread `name` (the file's name without extension) beside the module at `from` (its import.meta.url). */
export function threadScript(from: string, name: string): URL {
  if (!from.endsWith('.ts')) return new URL(`./${name}.js`, from);
  const source = fileURLToPath(new URL(`./${name}.ts`, from));
  let bundle = bundles.get(source);
  if (!bundle) {
    bundle = bundleFromSource(source);
    bundles.set(source, bundle);
  }
  return bundle;
}

/**
 * The thread's source and all it imports as one ES module in node_modules/.cache/brief-threads/, named by
 * its content (test processes side by side share one file; a changed source makes a new one). It stays
 * inside the package so that what is left outside the bundle (the native SQLite binding) is found.
 */
function bundleFromSource(source: string): URL {
  // esbuild is a development dependency (tsx's): loaded only here, from source, never by the built server.
  const loadPackage = createRequire(import.meta.url);
  const esbuild: { buildSync(options: object): { outputFiles: Array<{ contents: Uint8Array }> } } = loadPackage('esbuild');
  const { EXTERNAL, BANNER } = loadPackage(path.join(PACKAGE_ROOT, 'scripts/bundle-options.cjs'));
  const [output] = esbuild.buildSync({
    entryPoints: [source],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    sourcemap: 'inline',
    external: EXTERNAL,
    logLevel: 'error',
    banner: { js: BANNER },
  }).outputFiles;
  const code = output!.contents;
  const dir = path.join(PACKAGE_ROOT, 'node_modules/.cache/brief-threads');
  const file = path.join(dir, `${path.basename(source, '.ts')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true });
    // Written aside and renamed: a process beside this one never reads half a file.
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, code);
    fs.renameSync(partial, file);
  }
  return pathToFileURL(file);
}
