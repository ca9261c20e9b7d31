// Where a worker thread's script is. Built, the .js file esbuild wrote beside dist/main.js (scripts/build-server.mjs),
// whichever chunk of the build asks (dist/chunks/ is a folder below it). From source (the tests), the .ts file bundled by esbuild as
// the build bundles it, once while the files it is made of stay as they were: Node 20 does not hand the
// process's loader hooks to a worker, and a thread that registers tsx itself starts a loader thread of its own
// and loads each of its modules through it, about 1.3 s of CPU for the SQLite thread's ~500, where the bundle
// loads in a few milliseconds a thread.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PACKAGE_ROOT } from './package-root.js';

/** Bundles made in this process, by source file. */
const bundles = new Map<string, URL>();

/** The script of thread `name` (the file's name without extension), whose source is beside the module at `from` (its import.meta.url). */
export function threadScript(from: string, name: string): URL {
  if (!from.endsWith('.ts')) return pathToFileURL(path.join(PACKAGE_ROOT, 'dist', `${name}.js`));
  const source = fileURLToPath(new URL(`./${name}.ts`, from));
  let bundle = bundles.get(source);
  if (!bundle) {
    bundle = bundleFromSource(source);
    bundles.set(source, bundle);
  }
  return bundle;
}

/** What a bundle was made of: each input file's size and modification time when it was read. */
interface Manifest {
  readonly bundle: string;
  readonly inputs: Readonly<Record<string, readonly [size: number, mtimeMs: number]>>;
}

/**
 * The thread's source and all it imports as one ES module in node_modules/.cache/brief-threads/, named by
 * its content (test processes side by side share one file; a changed source makes a new one). It stays
 * inside the package so that what is left outside the bundle (the native SQLite binding) is found. Beside
 * it, a manifest of the files it was made of: a process that finds them all as they were uses the bundle
 * without bundling again (~0.5 s of CPU a thread script, which most test processes would otherwise pay).
 */
export function bundleFromSource(source: string): URL {
  const dir = path.join(PACKAGE_ROOT, 'node_modules/.cache/brief-threads');
  const name = path.basename(source, '.ts');
  const manifestFile = path.join(dir, `${name}-${createHash('sha256').update(source).digest('hex').slice(0, 16)}.json`);
  const kept = readManifest(manifestFile);
  if (kept !== undefined && fs.existsSync(kept.bundle) && unchanged(kept.inputs)) return pathToFileURL(kept.bundle);
  // esbuild is a development dependency (tsx's): loaded only here, from source, never by the built server.
  const loadPackage = createRequire(import.meta.url);
  const esbuild: {
    buildSync(options: object): { outputFiles: Array<{ contents: Uint8Array }>; metafile: { inputs: Record<string, unknown> } };
  } = loadPackage('esbuild');
  const { EXTERNAL, BANNER } = loadPackage(path.join(PACKAGE_ROOT, 'scripts/bundle-options.cjs'));
  const built = esbuild.buildSync({
    entryPoints: [source],
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    metafile: true,
    sourcemap: 'inline',
    external: EXTERNAL,
    logLevel: 'error',
    banner: { js: BANNER },
  });
  const code = built.outputFiles[0]!.contents;
  const file = path.join(dir, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(file)) writeWhole(file, code);
  const inputs = Object.fromEntries(
    Object.keys(built.metafile.inputs).map((input) => {
      const stat = fs.statSync(path.resolve(PACKAGE_ROOT, input));
      return [path.resolve(PACKAGE_ROOT, input), [stat.size, stat.mtimeMs] as const];
    }),
  );
  writeWhole(manifestFile, JSON.stringify({ bundle: file, inputs } satisfies Manifest));
  return pathToFileURL(file);
}

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/** Every input file is still there, of the size and modification time it had. */
function unchanged(inputs: Manifest['inputs']): boolean {
  return Object.entries(inputs).every(([input, [size, mtimeMs]]) => {
    const stat = fs.statSync(input, { throwIfNoEntry: false });
    return stat !== undefined && stat.size === size && stat.mtimeMs === mtimeMs;
  });
}

/** Written aside and renamed: a process beside this one never reads half a file. */
function writeWhole(file: string, contents: Uint8Array | string): void {
  const partial = `${file}.${process.pid}`;
  fs.writeFileSync(partial, contents);
  fs.renameSync(partial, file);
}
