import type { Connection } from '../connection.js';
import type { WellKnownEntry, WellKnownFile, WellKnownStore } from '../stores/well-known.js';

/** The domains' `/.well-known/` files (decision 0042), in the same SQL on both dialects. */
export class SqlWellKnownStore implements WellKnownStore {
  constructor(private readonly connection: Connection) {}

  async get(domain: string, name: string): Promise<WellKnownFile | undefined> {
    const row = await this.connection.db
      .selectFrom('domain_well_known')
      .select(['domain', 'name', 'body', 'updated_at'])
      .where('domain', '=', domain)
      .where('name', '=', name)
      .executeTakeFirst();
    // bigint on PostgreSQL arrives as a string
    return row && { domain: row.domain, name: row.name, body: row.body, updatedAt: Number(row.updated_at) };
  }

  async list(domain: string): Promise<WellKnownEntry[]> {
    const rows = await this.connection.db
      .selectFrom('domain_well_known')
      .select(['domain', 'name', 'body', 'updated_at'])
      .where('domain', '=', domain)
      .orderBy('name')
      .execute();
    return rows.map((row) => ({ domain: row.domain, name: row.name, bytes: Buffer.byteLength(row.body), updatedAt: Number(row.updated_at) }));
  }

  async put(domain: string, name: string, body: string): Promise<WellKnownFile> {
    const updatedAt = Date.now();
    await this.connection.write((db) =>
      db
        .insertInto('domain_well_known')
        .values({ domain, name, body, updated_at: updatedAt })
        .onConflict((oc) => oc.columns(['domain', 'name']).doUpdateSet({ body, updated_at: updatedAt }))
        .execute(),
    );
    return { domain, name, body, updatedAt };
  }

  async remove(domain: string, name: string): Promise<boolean> {
    const result = await this.connection.write((db) =>
      db.deleteFrom('domain_well_known').where('domain', '=', domain).where('name', '=', name).executeTakeFirst(),
    );
    return Number(result.numDeletedRows) > 0;
  }
}
