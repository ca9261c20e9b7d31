// Seeding helpers shared by the tests (test/support/database.ts re-exports them) and the benchmarks.
import { createHash } from 'node:crypto';
import type { NewLink } from '../src/storage/stores/links.js';

/** What the store needs to make a plain link to `url` (no slug, password or expiry), with `extra` over it. */
export function newLink(url: string, extra: Partial<NewLink> = {}): NewLink {
  return {
    accountId: 1,
    domain: 'short.test',
    codeLength: 7,
    slug: null,
    url,
    urlHash: createHash('sha256').update(url).digest(),
    title: null,
    comment: null,
    passwordHash: null,
    expiresAt: null,
    reusable: false,
    reuseExisting: false,
    forwardQuery: true,
    rules: [],
    maxVisits: null,
    preview: null,
    ...extra,
  };
}
