// A row of `brief import` as the store takes it (storage/stores/imports.ts): a public link with no extras, and the
// fields a test cares about.
import { randomBytes } from 'node:crypto';
import type { ImportedLink } from '../../src/storage/stores/imports.js';

export function importedLink(fields: Pick<ImportedLink, 'originKey' | 'accountId' | 'url'> & Partial<ImportedLink>): ImportedLink {
  return {
    domain: 'short.test',
    key: null,
    keyIsCode: false,
    urlHash: randomBytes(32),
    title: null,
    comment: null,
    createdAt: Date.now(),
    expiresAt: null,
    status: 'public',
    clicks: 0,
    forwardQuery: true,
    rules: [],
    maxVisits: null,
    limitedVisits: 0,
    tags: [],
    preview: null,
    ...fields,
  };
}
