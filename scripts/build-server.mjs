#!/usr/bin/env node
// The server's build (the first step of `npm run build`): src/ bundled by esbuild into dist/main.js, with
// the worker threads beside it (dist/background-thread.js, dist/password-worker.js, dist/qr-worker.js, where the
// code looks for them). One file loads in about half the CPU time of the ~1,000 modules it replaces, which is most of
// what a start costs (docs/benchmarks.md, "Start-up"). The type check is `npm run typecheck`, not this.
// Left outside the bundle: the native SQLite binding, and packages that read files beside their own code.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const EXTERNAL = [
  'better-sqlite3', // a native addon, found through its own folder
  'pg-native', // pg's optional native driver, not installed
  'ioredis', // reads its own package.json
  '@fastify/swagger', // reads its own package.json
  '@fastify/swagger-ui', // serves the files of its own static/ folder
];

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
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as briefCreateRequire } from 'node:module'; const require = briefCreateRequire(import.meta.url);" },
  });
}

// Run, it builds; imported (test/scripts/build-server.test.ts reads EXTERNAL), it does nothing.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
