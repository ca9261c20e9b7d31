// Dependency rules (`npm run depcheck`, which cruises src/, test/, bench/ and harness/). The rules for src/
// constrain only modules under src/; the last rules keep test/ and bench/ apart (they share harness/), and the
// suites of test/ apart (they share test/support/ and test/scale-support/).

/** Feature and core modules that must not depend on the HTTP layer. */
const FEATURES =
  '^src/(?:abuse|accounts|domains|links|passwords|redirect|shared-state|storage|analytics|visitors|qr|people|tokens|webhooks)/|^src/(?:config|errors)[.]ts$';
/** A feature's routes are its HTTP edge: they may use src/http/. */
const ROUTES = ['/routes[.]ts$', '-routes[.]ts$'];

/**
 * The folder layers of src/, lowest first (docs/decisions/0024-folder-layers.md). A module may import
 * its own layer and the layers below it, never one above. Inside the features layer, which feature may
 * use which is left to the folder-cycle rule: any order works as long as the arrows go one way.
 */
const LAYERS = [
  [
    'core',
    '^src/(?:config|errors|iso-instants|log|nested-maps|package-root|periodic-poll|periodic-writer|query-defaults|thread-scripts|worker-pool)[.]ts$',
  ],
  ['shared', '^src/(?:html|net|passwords)/'],
  ['infrastructure', '^src/(?:storage|shared-state)/'],
  ['accounts', '^src/accounts/'],
  ['edge', '^src/http/'],
  ['features', '^src/(?:abuse|domains|links|redirect|analytics|visitors|qr|health|metrics|web|tokens|people|webhooks)/'],
  ['composition', '^src/(?:app|services|serve|main|start-log)[.]ts$|^src/(?:cli|import)/'],
];

/** One rule a layer: nothing in it imports a layer above it. */
const layerRules = LAYERS.slice(0, -1).map(([name, path], index) => {
  const below = LAYERS.slice(0, index).map(([lower]) => lower);
  return {
    name: `layer-${name}`,
    severity: 'error',
    comment: `The ${name} layer imports only itself and the layers below it (${below.join(', ') || 'none'}), never a layer above: pass what it needs in from the composition root (app.ts, services.ts) instead.`,
    from: { path },
    to: { path: LAYERS.slice(index + 1).map(([, above]) => above) },
  };
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      severity: 'error',
      scope: 'folder',
      comment:
        'A cycle between folders of src/ (one folder imports another that, by some path, imports it back): ' +
        'the arrows between folders go one way. Move what both need to a lower folder, or pass it in from the composition root.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'every-module-in-a-layer',
      severity: 'error',
      comment: 'Every module of src/ belongs to a layer: add a new folder or root file to LAYERS in .dependency-cruiser.cjs.',
      from: { path: '^src/', pathNot: LAYERS.map(([, path]) => path) },
      to: {},
    },
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle in src/: break it by moving what both sides need into a module of its own.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'features-not-http',
      severity: 'error',
      comment:
        'Features and core modules must not depend on src/http/ (Fastify, errors as HTTP answers). ' +
        "Only a feature's routes.ts or *-routes.ts, its HTTP edge, may.",
      from: { path: FEATURES, pathNot: ROUTES },
      to: { path: '^src/http/' },
    },
    {
      name: 'drivers-only-in-storage',
      severity: 'error',
      comment: 'Only src/storage/ may use the database drivers and the query builder (kysely, better-sqlite3, pg).',
      from: { path: '^src/', pathNot: '^src/storage/' },
      to: { path: '(?:^|/)node_modules/(?:@types/)?(?:kysely|better-sqlite3|pg)/' },
    },
    {
      name: 'redis-only-in-shared-state',
      severity: 'error',
      comment: 'Only src/shared-state/ may use the Redis client (ioredis).',
      from: { path: '^src/', pathNot: '^src/shared-state/' },
      to: { path: '(?:^|/)node_modules/(?:@types/)?ioredis/' },
    },
    {
      name: 'storage-through-interfaces',
      severity: 'error',
      comment:
        'Outside src/storage/, use storage only through src/storage/stores/ (one contract per kind of record: store interface and record types) ' +
        'and src/storage/connection-errors.ts. Only the composition root, src/services.ts, may import any storage module.',
      from: { path: '^src/', pathNot: '^src/storage/|^src/services[.]ts$' },
      to: { path: '^src/storage/', pathNot: '^src/storage/(?:stores/[^/]+|connection-errors)[.]ts$' },
    },
    // Storage by dialect (docs/decisions/0035-storage-by-dialect.md): each dialect's folder implements every store
    // contract on its own engine, and what both build the same way lives in src/storage/sql/, which both import.
    {
      name: 'sqlite-not-postgres',
      severity: 'error',
      comment: 'src/storage/sqlite/ never imports src/storage/postgres/: move what both need to src/storage/sql/.',
      from: { path: '^src/storage/sqlite/' },
      to: { path: '^src/storage/postgres/' },
    },
    {
      name: 'postgres-not-sqlite',
      severity: 'error',
      comment: 'src/storage/postgres/ never imports src/storage/sqlite/: move what both need to src/storage/sql/.',
      from: { path: '^src/storage/postgres/' },
      to: { path: '^src/storage/sqlite/' },
    },
    {
      name: 'sql-not-a-dialect',
      severity: 'error',
      comment:
        'src/storage/sql/ holds what both dialects run the same way, so it imports neither dialect folder: ' +
        'what differs is passed in (WorkspaceLocks) or overridden by the dialect (sqlite/, postgres/).',
      from: { path: '^src/storage/sql/' },
      to: { path: '^src/storage/(?:sqlite|postgres)/' },
    },
    {
      name: 'better-sqlite3-only-in-sqlite',
      severity: 'error',
      comment: 'Inside src/storage/, only src/storage/sqlite/ uses better-sqlite3: src/storage/sql/ speaks Kysely alone.',
      from: { path: '^src/storage/', pathNot: '^src/storage/sqlite/' },
      to: { path: '(?:^|/)node_modules/(?:@types/)?better-sqlite3/' },
    },
    {
      name: 'pg-only-in-postgres',
      severity: 'error',
      comment: 'Inside src/storage/, only src/storage/postgres/ uses pg: src/storage/sql/ speaks Kysely alone.',
      from: { path: '^src/storage/', pathNot: '^src/storage/postgres/' },
      to: { path: '(?:^|/)node_modules/(?:@types/)?pg/' },
    },
    {
      name: 'not-to-dev-dep',
      severity: 'error',
      comment:
        'src/ ships to production, where devDependencies are not installed: declare what it uses in dependencies. ' +
        'Type-only imports are erased at compile time and are allowed.',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'], pathNot: ['node_modules/@types/'] },
    },
    {
      // Not a design rule but a guard for the others: an import the cruiser cannot resolve is an edge it
      // cannot see, so a broken resolution setup would make every rule above pass silently.
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import dependency-cruiser cannot resolve (a typo, or a package missing from package.json).',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
    // Tests, benchmarks and the harness they share: `npm run depcheck` cruises test/,
    // bench/ and harness/ as well as src/. Neither test/ nor bench/ imports the other; what both need
    // (starting servers, the hostile fuzz, seeding) lives in harness/, which imports neither.
    {
      name: 'tests-not-bench',
      severity: 'error',
      comment: 'test/ must not import bench/: move what both use into harness/.',
      from: { path: '^test/' },
      to: { path: '^bench/' },
    },
    {
      name: 'bench-not-tests',
      severity: 'error',
      comment: 'bench/ must not import test/: move what both use into harness/.',
      from: { path: '^bench/' },
      to: { path: '^test/' },
    },
    {
      name: 'harness-stands-alone',
      severity: 'error',
      comment: 'harness/ is shared by test/ and bench/, so it imports neither (only src/, node: and packages).',
      from: { path: '^harness/' },
      to: { path: '^(?:test|bench)/' },
    },
    // Between the suites of test/ (docs/testing.md): a test file is imported by nothing, and a file of test/ imports
    // from test/ only its own folder's helpers (test/browser/browser.ts) and the shared ones, test/support/ and
    // test/scale-support/; what a benchmark needs as well lives in harness/.
    {
      name: 'no-test-imports-a-test',
      severity: 'error',
      comment: "A test file (*.test.ts) is imported by nothing: move what another file needs into its folder's helper or test/support/.",
      from: { path: '^(?:test|bench|harness)/' },
      to: { path: '[.]test[.]ts$' },
    },
    {
      name: 'tests-through-support',
      severity: 'error',
      comment:
        "A file of test/ imports from another folder of test/ only test/support/ and test/scale-support/, never another suite's helper: " +
        'move what both use into test/support/.',
      from: { path: '^test/([^/]+)/' },
      to: { path: '^test/', pathNot: ['^test/(?:support|scale-support)/', '^test/$1/'] },
    },
    {
      name: 'harness-resolvable',
      severity: 'error',
      comment: 'An import in test/, bench/ or harness/ that dependency-cruiser cannot resolve: the rules above would not see it.',
      from: { path: '^(?:test|bench|harness)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Count `import type` too: a cycle or a forbidden import through types is still a dependency of the design.
    tsPreCompilationDeps: true,
    // NodeNext ESM: imports say './x.js' and resolve to './x.ts' (the TypeScript config tells the cruiser so).
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.d.ts', '.json'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
