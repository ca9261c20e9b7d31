#!/usr/bin/env node
// The server's build (the first step of `npm run build`): src/ bundled by esbuild into dist/main.js, with
// the worker threads beside it (dist/background-thread.js, dist/password-worker.js, dist/qr-worker.js, where the
// code looks for them). One file loads in about half the CPU time of the ~1,000 modules it replaces, which is most of
// what a start costs (docs/benchmarks.md, "Start-up"). The type check is `npm run typecheck`, not this.
// What is left outside the bundle, and the banner every bundle needs, are shared with the threads' bundles from
// source (scripts/bundle-options.cjs).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import bundleOptions from './bundle-options.cjs';

const { EXTERNAL, BANNER } = bundleOptions;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export { EXTERNAL };

/** The bundle and its workers, from nothing (earlier builds left tsc's unbundled tree); vite writes dist/web-app/ next. */
async function buildServer() {
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts', 'src/storage/sqlite/background-thread.ts', 'src/passwords/password-worker.ts', 'src/qr/qr-worker.ts'],
    entryNames: '[name]',
    outdir: 'dist',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    external: EXTERNAL,
    logLevel: 'warning',
    banner: { js: BANNER },
  });
}

// Run, it builds; imported (test/scripts/build-server.test.ts reads EXTERNAL), it does nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
