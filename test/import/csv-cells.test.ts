// Spreadsheet-safe CSV cells (issue 37, item 7; decision 0032): a cell that could start a formula gets a
// leading `'`, and `brief import --format brief` takes exactly that quote back off. Checked on the rule
// itself, and as a property over arbitrary values through the export's CSV writer and the import's reader
// (the CLI round trip on both dialects is in spreadsheet-round-trip.e2e.test.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { csvField, exportCsv } from '../../src/cli/export-commands.js';
import { briefRows } from '../../src/import/brief-formats.js';
import { spreadsheetSafe, spreadsheetValue } from '../../src/import/csv-cells.js';
import type { SourceRow } from '../../src/import/source-rows.js';
import type { ExportedLink } from '../../src/storage/sql/link-export.js';

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r', "'"];

/** Strings made mostly of the characters that matter here (formula starts, quotes, separators), or of any. */
const hostileText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...TRIGGERS, '"', ',', '\n', ' ', 'a', '1', 'é', '😀'), maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

async function readBack(text: string, cuts: number[]): Promise<SourceRow[]> {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const chunks = [0, ...at, text.length].slice(1).map((end, i, ends) => text.slice(i === 0 ? 0 : ends[i - 1], end));
  const rows: SourceRow[] = [];
  const file = {
    first: chunks[0] ?? '',
    chunks: {
      async *[Symbol.asyncIterator]() {
        yield* chunks.filter((chunk) => chunk !== '');
      },
    },
  };
  for await (const row of briefRows(file)) rows.push(row);
  return rows;
}

describe('spreadsheet-safe CSV cells', () => {
  it("prefixes a cell starting with =, +, -, @, tab, CR or ' with a quote, and nothing else", () => {
    for (const first of TRIGGERS) assert.equal(spreadsheetSafe(`${first}x`), `'${first}x`, JSON.stringify(first));
    for (const value of ['', 'a=1', ' =1', '\n=1', 'https://example.com/?a=-1', '1-2', '0', 'true', '2030-01-02T03:04:05.000Z', '＝1']) {
      assert.equal(spreadsheetSafe(value), value, JSON.stringify(value));
    }
    assert.equal(spreadsheetSafe("'"), "''");
    assert.equal(spreadsheetSafe("''"), "'''");
    assert.equal(spreadsheetSafe('-1'), "'-1");
    assert.equal(spreadsheetSafe('=HYPERLINK("http://x")'), `'=HYPERLINK("http://x")`);
  });

  it('takes exactly one quote back off, and only one it could have put there', () => {
    assert.equal(spreadsheetValue("'=1+2"), '=1+2');
    assert.equal(spreadsheetValue("''"), "'");
    assert.equal(spreadsheetValue("'''"), "''");
    assert.equal(spreadsheetValue("'-1"), '-1');
    assert.equal(spreadsheetValue("'\tx"), '\tx');
    // Never written by the rule: an older export's (or a person's) value, kept as it is.
    assert.equal(spreadsheetValue("'"), "'");
    assert.equal(spreadsheetValue("'tis"), "'tis");
    assert.equal(spreadsheetValue('=1+2'), '=1+2');
  });

  it('writes CSV fields that no spreadsheet reads as a formula, quoted as RFC 4180 says', () => {
    assert.equal(csvField('=1+2'), "'=1+2");
    assert.equal(csvField('\tindented'), "'\tindented");
    assert.equal(csvField('\rback'), `"'\rback"`);
    assert.equal(csvField('=A1,"x"'), `"'=A1,""x"""`);
    assert.equal(csvField(-3), "'-3", 'numbers follow the same rule (no exported number is negative)');
    assert.equal(csvField(7), '7');
    assert.equal(csvField(null), '');
  });

  it("writes a link's card as three plain columns after its tags, each cell under the rule, empty without one", async () => {
    const base: ExportedLink = {
      domain: 'short.test',
      key: 'card',
      isSlug: true,
      url: 'https://example.com/',
      title: null,
      comment: null,
      owner: 'alice',
      created: '2026-11-28T00:00:00.000Z',
      status: 'public',
      clicks: 0,
      expires: null,
      hasPassword: false,
      forwardQuery: true,
      rules: [],
      maxVisits: null,
      limitedVisits: null,
      tags: [],
      preview: { title: '=HYPERLINK("http://x")', description: '@sale, "today"', image: 'https://img.example/a.png?x=1,2' },
    };
    assert.ok(exportCsv.header.endsWith(',tags,previewTitle,previewDescription,previewImage\r\n'), exportCsv.header);
    const line = exportCsv.line(base);
    assert.ok(line.endsWith(`,"'=HYPERLINK(""http://x"")","'@sale, ""today""","https://img.example/a.png?x=1,2"\r\n`), line);
    assert.ok(exportCsv.line({ ...base, preview: null }).endsWith(',,,,\r\n'), 'tags and the three card cells empty');
    const rows = await readBack(exportCsv.header + line + exportCsv.line({ ...base, preview: null }), []);
    assert.deepEqual(
      rows.map((row) => row.preview),
      [base.preview, undefined],
    );
  });

  it('undoes its own escape for every string (property)', () => {
    fc.assert(
      fc.property(hostileText, (value) => {
        const cell = spreadsheetSafe(value);
        assert.equal(spreadsheetValue(cell), value);
        assert.ok(!/^[=+\-@\t\r]/.test(cell), `${JSON.stringify(cell)} could start a formula`);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back every value the export writes, through the CSV writer and the --format brief reader, in any chunking (property)', async () => {
    const link = fc.record({
      domain: hostileText,
      key: hostileText,
      isSlug: fc.boolean(),
      url: hostileText,
      title: fc.option(hostileText),
      comment: fc.option(hostileText),
      owner: hostileText,
      created: fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }).map((d) => d.toISOString()),
      status: fc.constantFrom('public' as const, 'blocked' as const),
      clicks: fc.nat(),
      expires: fc.option(fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }).map((d) => d.toISOString())),
      hasPassword: fc.boolean(),
      forwardQuery: fc.boolean(),
      rules: fc.array(fc.record({ url: hostileText, conditions: fc.array(fc.record({ type: hostileText, value: hostileText }), { maxLength: 2 }) }), {
        maxLength: 2,
      }),
      maxVisits: fc.option(fc.integer({ min: 1, max: 2_147_483_647 })),
      limitedVisits: fc.option(fc.integer({ min: 0, max: 2_147_483_647 })),
      tags: fc.array(hostileText, { maxLength: 3 }),
      // A card always has a title (1 to 512 characters); its description and image may be null.
      preview: fc.option(
        fc.record({ title: hostileText.filter((title) => title !== ''), description: fc.option(hostileText), image: fc.option(hostileText) }),
      ),
    }) satisfies fc.Arbitrary<ExportedLink>;
    await fc.assert(
      fc.asyncProperty(fc.array(link, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 6 }), async (links, cuts) => {
        const text = exportCsv.header + links.map(exportCsv.line).join('');
        const rows = await readBack(text, cuts);
        assert.equal(rows.length, links.length);
        const absentWhenEmpty = (value: string | null) => (value === null || value === '' ? undefined : value);
        rows.forEach((row, i) => {
          const sent = links[i]!;
          assert.equal(row.problem, undefined);
          assert.deepEqual(
            {
              domain: row.domain,
              key: row.key,
              url: row.url,
              title: row.title,
              comment: row.comment,
              owner: row.owner,
              created: row.created,
              expires: row.expires,
              clicks: row.clicks,
              blocked: row.blocked,
              keyIsCode: row.keyIsCode,
              hasPassword: row.hasPassword,
              forwardQuery: row.forwardQuery,
              rules: row.rules,
              maxVisits: row.maxVisits,
              limitedVisits: row.limitedVisits,
              tags: row.tags,
              preview: row.preview,
            },
            {
              domain: absentWhenEmpty(sent.domain),
              key: absentWhenEmpty(sent.key),
              url: absentWhenEmpty(sent.url),
              title: absentWhenEmpty(sent.title),
              comment: absentWhenEmpty(sent.comment),
              owner: absentWhenEmpty(sent.owner),
              created: Date.parse(sent.created),
              expires: sent.expires === null ? undefined : Date.parse(sent.expires),
              clicks: sent.clicks,
              blocked: sent.status === 'blocked',
              keyIsCode: !sent.isSlug,
              hasPassword: sent.hasPassword,
              forwardQuery: sent.forwardQuery,
              // As plain JSON values (the arbitrary's records have no prototype).
              rules: sent.rules.length === 0 ? undefined : JSON.parse(JSON.stringify(sent.rules)),
              maxVisits: sent.maxVisits ?? undefined,
              limitedVisits: sent.limitedVisits ?? undefined,
              tags: sent.tags.length === 0 ? undefined : sent.tags,
              // Three cells, empty for none: an empty description or image is none, as the API reads it.
              preview:
                sent.preview === null
                  ? undefined
                  : { ...sent.preview, description: sent.preview.description || null, image: sent.preview.image || null },
            },
          );
        });
      }),
      { numRuns: 300 },
    );
  });
});
