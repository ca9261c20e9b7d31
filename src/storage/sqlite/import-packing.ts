import { previewOf, rulesColumn, rulesOf } from '../sql/link-rows.js';
import type { ImportedLink } from '../stores/imports.js';
import type { ImportBatch } from './import-batches.js';

// An import batch on its way to the SQLite background thread, as columns: numbers and flags in typed
// arrays and the URL hashes in one buffer (moved, not copied), text in one array a field.
// Structured-cloning a thousand objects of fifteen fields cost the reading thread about as much as
// the thread saved it.

export interface PackedImport {
  readonly source: string;
  readonly codeLengths: Readonly<Record<string, number>>;
  readonly dryRun: boolean;
  readonly count: number;
  readonly originKeys: string[];
  readonly domains: string[];
  readonly keys: (string | null)[];
  readonly urls: string[];
  readonly titles: (string | null)[];
  readonly comments: (string | null)[];
  /** The rules column of each link (JSON text, null: none). */
  readonly rules: (string | null)[];
  /** Each link's tags joined by commas, which no tag name has ('': none). */
  readonly tags: string[];
  /** Each link's card as three texts (title, description, image; the title null: no card). */
  readonly previews: (string | null)[];
  /** accountId, createdAt, expiresAt (NaN: none), clicks, maxVisits (NaN: none), limitedVisits: six a link. */
  readonly numbers: Float64Array;
  /** keyIsCode, blocked, forwardQuery: one bit each, a byte a link. */
  readonly flags: Uint8Array;
  /** Each link's SHA-256, 32 bytes after the one before. */
  readonly hashes: Uint8Array;
}

const HASH_BYTES = 32;
const KEY_IS_CODE = 1;
const BLOCKED = 2;
const FORWARD_QUERY = 4;
const NUMBERS = 6;

export function packImport({ source, links, codeLengths, dryRun }: ImportBatch): PackedImport {
  const count = links.length;
  const numbers = new Float64Array(count * NUMBERS);
  const flags = new Uint8Array(count);
  const hashes = new Uint8Array(count * HASH_BYTES);
  links.forEach((link, i) => {
    numbers[i * NUMBERS] = link.accountId;
    numbers[i * NUMBERS + 1] = link.createdAt;
    numbers[i * NUMBERS + 2] = link.expiresAt ?? Number.NaN;
    numbers[i * NUMBERS + 3] = link.clicks;
    numbers[i * NUMBERS + 4] = link.maxVisits ?? Number.NaN;
    numbers[i * NUMBERS + 5] = link.limitedVisits;
    flags[i] = (link.keyIsCode ? KEY_IS_CODE : 0) | (link.status === 'blocked' ? BLOCKED : 0) | (link.forwardQuery ? FORWARD_QUERY : 0);
    hashes.set(link.urlHash, i * HASH_BYTES);
  });
  return {
    source,
    codeLengths,
    dryRun,
    count,
    originKeys: links.map((link) => link.originKey),
    domains: links.map((link) => link.domain),
    keys: links.map((link) => link.key),
    urls: links.map((link) => link.url),
    titles: links.map((link) => link.title),
    comments: links.map((link) => link.comment),
    rules: links.map((link) => rulesColumn(link.rules)),
    tags: links.map((link) => link.tags.join(',')),
    previews: links.flatMap(({ preview }) => [preview?.title ?? null, preview?.description ?? null, preview?.image ?? null]),
    numbers,
    flags,
    hashes,
  };
}

/** What to transfer with the packed batch: its typed arrays' buffers move to the thread. */
export const transfersOf = (packed: PackedImport): ArrayBuffer[] =>
  [packed.numbers.buffer, packed.flags.buffer, packed.hashes.buffer] as ArrayBuffer[];

export function unpackImport(packed: PackedImport): ImportBatch {
  const { numbers, flags, hashes } = packed;
  const hashBuffer = Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
  const links: ImportedLink[] = [];
  for (let i = 0; i < packed.count; i++) {
    const expiresAt = numbers[i * NUMBERS + 2]!;
    const maxVisits = numbers[i * NUMBERS + 4]!;
    links.push({
      originKey: packed.originKeys[i]!,
      accountId: numbers[i * NUMBERS]!,
      domain: packed.domains[i]!,
      key: packed.keys[i]!,
      keyIsCode: (flags[i]! & KEY_IS_CODE) !== 0,
      url: packed.urls[i]!,
      urlHash: hashBuffer.subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES),
      title: packed.titles[i]!,
      comment: packed.comments[i]!,
      createdAt: numbers[i * NUMBERS + 1]!,
      expiresAt: Number.isNaN(expiresAt) ? null : expiresAt,
      status: (flags[i]! & BLOCKED) !== 0 ? 'blocked' : 'public',
      clicks: numbers[i * NUMBERS + 3]!,
      forwardQuery: (flags[i]! & FORWARD_QUERY) !== 0,
      rules: rulesOf(packed.rules[i]!) ?? [],
      maxVisits: Number.isNaN(maxVisits) ? null : maxVisits,
      limitedVisits: numbers[i * NUMBERS + 5]!,
      tags: packed.tags[i] ? packed.tags[i]!.split(',') : [],
      preview:
        previewOf({
          preview_title: packed.previews[i * 3]!,
          preview_description: packed.previews[i * 3 + 1]!,
          preview_image: packed.previews[i * 3 + 2]!,
        }) ?? null,
    });
  }
  return { source: packed.source, links, codeLengths: packed.codeLengths, dryRun: packed.dryRun };
}
