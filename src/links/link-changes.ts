import type { Kysely } from 'kysely';
import type { Tables } from '../storage/tables.js';

/**
 * Where a service reports that what a short URL resolves to has changed (deleted,
 * blocked, unblocked, created), so that every instance's redirect cache drops it.
 * `record` runs inside the write that makes the change; `announce` runs after commit.
 */
export interface LinkChangeSink {
  record(db: Kysely<Tables>, domain: string, key: string): Promise<void>;
  announce(domain: string, key: string): void;
}

/** Appends to the link_changes feed that running instances poll (see redirect/change-feed.ts). */
export async function recordLinkChange(db: Kysely<Tables>, domain: string, key: string): Promise<void> {
  await db.insertInto('link_changes').values({ domain, key, created_at: Date.now() }).execute();
}
