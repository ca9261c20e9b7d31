// Import batches packed for the SQLite background thread come out as they went in.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { ImportBatch } from '../../src/storage/sqlite/import-batches.js';
import { packImport, transfersOf, unpackImport } from '../../src/storage/sqlite/import-packing.js';
import type { ImportedLink } from '../../src/storage/stores/imports.js';
import { importedLink } from '../support/imported-links.js';

const link = (i: number, fields: Partial<ImportedLink> = {}): ImportedLink =>
  importedLink({
    originKey: `key-${i}`,
    accountId: 3 + i,
    domain: i % 2 ? 'go.example' : 'short.test',
    key: `k${i}`,
    url: `https://example.com/${i}`,
    urlHash: createHash('sha256').update(`https://example.com/${i}`).digest(),
    title: `Title ${i}`,
    createdAt: 1_700_000_000_000 + i,
    ...fields,
  });

describe('import packing', () => {
  it('round-trips every field: nulls, flags, times and each link’s own hash', () => {
    const batch: ImportBatch = {
      source: 'csv',
      codeLengths: { 'short.test': 7, 'go.example': 5 },
      dryRun: true,
      links: [
        link(0),
        link(1, { key: null, title: null, comment: 'moved', expiresAt: 1_900_000_000_000, status: 'blocked', clicks: 12, forwardQuery: false }),
        link(2, { keyIsCode: true, key: 'x4Tq9Zb', clicks: 2 ** 40, tags: ['Launch', 'news letter', 'ünï|cøde'] }),
        link(4, { maxVisits: 2_147_483_647, limitedVisits: 2_147_483_647 }),
        link(3, { rules: [{ url: 'https://example.com/r', conditions: [{ type: 'query', key: 'a', value: 'b' }] }] }),
        link(5, { preview: { title: 'Card, "quoted"', description: 'ünï\nline', image: 'https://img.example/c.png' } }),
        link(6, { preview: { title: 'Title only', description: null, image: null } }),
      ],
    };
    const packed = packImport(batch);
    assert.equal(transfersOf(packed).length, 3);
    const unpacked = unpackImport(structuredClone(packed, { transfer: transfersOf(packed) }));
    assert.deepEqual(
      unpacked.links.map((l) => ({ ...l, urlHash: Buffer.from(l.urlHash).toString('hex') })),
      batch.links.map((l) => ({ ...l, urlHash: l.urlHash.toString('hex') })),
    );
    assert.ok(
      unpacked.links.every((l) => Buffer.isBuffer(l.urlHash)),
      'hashes bind as blobs',
    );
    assert.deepEqual({ ...unpacked, links: [] }, { ...batch, links: [] });
  });

  it('packs an empty batch', () => {
    const batch: ImportBatch = { source: 'brief', codeLengths: {}, dryRun: false, links: [] };
    assert.deepEqual(unpackImport(packImport(batch)), batch);
  });
});
