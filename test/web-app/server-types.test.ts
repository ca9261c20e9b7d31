// The web app's API types are the server's: web/src imports them type-only from the server's schema
// modules, so they cannot drift (web/src/api.ts). This checks that arrangement holds: the web's
// typecheck (web/tsconfig.json, as `npm run typecheck` runs it) passes, fails when the server's
// schemas change under it, and sees no server code but type-only imports of Node-free modules.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');
const WEB_SRC = path.join(ROOT, 'web/src');
const SERVER_SRC = path.join(ROOT, 'src');

const config = ts.getParsedCommandLineOfConfigFile(
  path.join(ROOT, 'web/tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => assert.fail(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
  },
);
assert.ok(config);

/** Files parsed once for every program (the DOM's declarations are most of the time otherwise). */
const parsed = new Map<string, ts.SourceFile | undefined>();

/** The web's program, with some server files' text edited (`edits`: path under src/ → edit of its text). */
function webProgram(edits: Record<string, (text: string) => string> = {}): ts.Program {
  const host = ts.createCompilerHost(config!.options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => {
    const text = readFile(file);
    const edit = edits[path.relative(SERVER_SRC, file)];
    if (text === undefined || edit === undefined) return text;
    const edited = edit(text);
    assert.notEqual(edited, text, `the edit of ${file} changed nothing: the test is out of date`);
    return edited;
  };
  host.getSourceFile = (file, language) => {
    if (edits[path.relative(SERVER_SRC, file)] !== undefined) return getSourceFile(file, language);
    if (!parsed.has(file)) parsed.set(file, getSourceFile(file, language));
    return parsed.get(file);
  };
  return ts.createProgram({ rootNames: config!.fileNames, options: config!.options, host });
}

/**
 * The type errors of a program, as `file: message`, relative to the repository: of the whole program, or of
 * one web file only (`only`, under web/src/: what an edit must break, checked without the rest).
 */
function errors(program: ts.Program, only?: string): string[] {
  const diagnostics =
    only === undefined ? ts.getPreEmitDiagnostics(program) : program.getSemanticDiagnostics(program.getSourceFile(path.join(WEB_SRC, only)));
  return diagnostics.map((d) => {
    const where = d.file ? path.relative(ROOT, d.file.fileName) : '?';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe('the web app takes its API types from the server', () => {
  const program = webProgram();

  it('type-checks as it stands', () => {
    assert.deepEqual(errors(program), []);
  });

  it('imports server modules type-only, so the build erases them and no server code reaches the bundle', () => {
    const fromServer: string[] = [];
    for (const file of program.getSourceFiles()) {
      if (!file.fileName.startsWith(WEB_SRC)) continue;
      for (const statement of file.statements) {
        const declaration = ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement : undefined;
        if (!declaration?.moduleSpecifier || !ts.isStringLiteral(declaration.moduleSpecifier)) continue;
        const target = path.resolve(path.dirname(file.fileName), declaration.moduleSpecifier.text);
        if (!target.startsWith(SERVER_SRC)) continue;
        const typeOnly = ts.isImportDeclaration(declaration) ? declaration.importClause?.isTypeOnly === true : declaration.isTypeOnly;
        fromServer.push(`${path.relative(ROOT, file.fileName)} → ${declaration.moduleSpecifier.text}${typeOnly ? '' : ' (not type-only)'}`);
      }
    }
    assert.ok(fromServer.length > 0, 'web/src imports no server types: this test is out of date');
    assert.deepEqual(
      fromServer.filter((line) => line.endsWith('(not type-only)')),
      [],
    );
  });

  it('sees no Node types: the server modules it reads are schema modules that need none', () => {
    const files = program.getSourceFiles().map((file) => path.relative(ROOT, file.fileName));
    assert.deepEqual(
      files.filter((file) => file.includes('node_modules/@types/node/')),
      [],
      'a server module the web app reads pulls in Node: web code could then use Node globals unchecked',
    );
    // What the web's typecheck reads of the server: the schema modules and the few leaf modules they import.
    const server = files.filter((file) => file.startsWith('src/')).sort();
    assert.deepEqual(
      server.filter((file) => !/(^|\/|-)schemas\.ts$/.test(file)),
      [
        'src/accounts/roles.ts',
        'src/accounts/scopes.ts',
        'src/analytics/time-series.ts',
        'src/domains/code-lengths.ts',
        'src/errors.ts',
        'src/iso-instants.ts',
        'src/links/link-fields.ts',
        'src/links/tag-names.ts',
        'src/query-defaults.ts',
        'src/redirect/rules/rule-types.ts',
        'src/storage/stores/row-ids.ts',
        'src/storage/stores/webhooks.ts',
      ],
    );
  });

  it('fails to type-check when a field of an answer the app reads is renamed on the server', () => {
    const found = errors(
      webProgram({ 'links/v3-schemas.ts': (text) => text.replace('  shortUrl: Type.String(),', '  shortLink: Type.String(),') }),
      'pages/link-page.tsx',
    );
    assert.ok(
      found.some((line) => line.startsWith('web/src/') && line.includes("'shortUrl'")),
      found.join('\n'),
    );
  });

  it('fails to type-check when a query parameter the app sends is renamed on the server', () => {
    const found = errors(
      webProgram({ 'analytics/schemas.ts': (text) => text.replace('  timezone: Type.String({', '  timeZone: Type.String({') }),
      'api.ts',
    );
    assert.ok(
      found.some((line) => line.startsWith('web/src/api.ts') && line.includes('timezone')),
      found.join('\n'),
    );
  });

  it("fails to type-check when the server's ranges change and the range picker does not follow", () => {
    const added = errors(
      webProgram({ 'analytics/time-series.ts': (text) => text.replace("'60d', '1m'] as const", "'60d', '1m', '90d'] as const") }),
      'components/range-picker.tsx',
    );
    assert.ok(
      added.some((line) => line.startsWith('web/src/components/range-picker.tsx') && line.includes('90d')),
      added.join('\n'),
    );
    const removed = errors(
      webProgram({ 'analytics/time-series.ts': (text) => text.replace("'24h', '1d', '3d',", "'24h', '3d',") }),
      'components/range-picker.tsx',
    );
    assert.ok(
      removed.some((line) => line.startsWith('web/src/components/range-picker.tsx')),
      removed.join('\n'),
    );
  });

  it("fails to type-check when the server's tag limits change and the tag editor's do not follow", () => {
    for (const edit of [
      (text: string) => text.replace('MAX_TAGS = 20', 'MAX_TAGS = 25'),
      (text: string) => text.replace('LENGTH = 50', 'LENGTH = 64'),
    ]) {
      const found = errors(webProgram({ 'links/tag-names.ts': edit }), 'tags/tag-names.ts');
      assert.ok(
        found.some((line) => line.startsWith('web/src/tags/tag-names.ts')),
        found.join('\n'),
      );
    }
  });

  it('has the range list once: the server has RANGES, the web app only names each of its ranges', () => {
    const picker = readFileSync(path.join(WEB_SRC, 'components/range-picker.tsx'), 'utf8');
    assert.match(picker, /const NAMES: Record<Range, string>/);
    assert.doesNotMatch(readFileSync(path.join(WEB_SRC, 'api.ts'), 'utf8'), /RANGES/);
  });
});
