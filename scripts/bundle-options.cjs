// What every esbuild bundle of Brief's server code shares: the build's (scripts/build-server.mjs) and the
// worker threads' bundles made from source for the tests (src/thread-scripts.ts). CommonJS, so that both an
// ES module and a synchronous require() can read it.

/** Left outside the bundle: the native SQLite binding, and packages that read files beside their own code. */
const EXTERNAL = [
  'better-sqlite3', // a native addon, found through its own folder
  'pg-native', // pg's optional native driver, not installed
  'ioredis', // reads its own package.json
  '@fastify/swagger', // reads its own package.json
  '@fastify/swagger-ui', // serves the files of its own static/ folder
];

/** Bundled CommonJS packages call require(); an ES module has none of its own. */
const BANNER = "import { createRequire as briefCreateRequire } from 'node:module'; const require = briefCreateRequire(import.meta.url);";

module.exports = { EXTERNAL, BANNER };
