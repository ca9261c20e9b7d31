#!/usr/bin/env node
// The server's build (the first step of `npm run build`): src/ bundled by esbuild into dist/main.js and the
// chunks it shares with the worker threads (dist/chunks/), the threads' entries beside it (dist/background-thread.js,
// dist/password-worker.js, dist/qr-worker.js, where the code looks for them). A few files load in about half the CPU
// time of the ~1,000 modules they replace, which is most of what a start costs (docs/benchmarks.md, "Start-up"); and
// the HTTP server (serve.js and all it imports: Fastify, the routes, the API docs) is a chunk of its own that only
// `brief serve` loads, so an admin command starts in ~0.5 s of CPU instead of ~0.85 s. The type check is
// `npm run typecheck`, not this.
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

/** The bundle, its chunks and its workers, from nothing (earlier builds left tsc's unbundled tree); vite writes dist/web-app/ next. */
async function buildServer() {
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['src/main.ts', 'src/storage/sqlite/background-thread.ts', 'src/passwords/password-worker.ts', 'src/qr/qr-worker.ts'],
    entryNames: '[name]',
    outdir: 'dist',
    bundle: true,
    // Code shared by the entries, and what main.ts imports dynamically (serve.js), in chunks of their own.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
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
