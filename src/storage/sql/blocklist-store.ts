import type { Connection } from '../connection.js';
import type { BlockedHost, BlocklistStore } from '../stores/blocklist.js';

export class SqlBlocklistStore implements BlocklistStore {
  constructor(private readonly connection: Connection) {}

  add(host: string): Promise<boolean> {
    return this.connection.write(async (db) => {
      const rows = await db
        .insertInto('blocked_hosts')
        .values({ host, created_at: Date.now() })
        .onConflict((oc) => oc.column('host').doNothing())
        .returning('id')
        .execute();
      return rows.length > 0;
    });
  }

  remove(host: string): Promise<boolean> {
    return this.connection.write(async (db) => {
      const result = await db.deleteFrom('blocked_hosts').where('host', '=', host).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async all(): Promise<BlockedHost[]> {
    const rows = await this.connection.db.selectFrom('blocked_hosts').select(['host', 'created_at']).orderBy('host').execute();
    return rows.map((row) => ({ host: row.host, createdAt: Number(row.created_at) }));
  }

  async version(): Promise<string> {
    const row = await this.connection.db
      .selectFrom('blocked_hosts')
      .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('id').as('newest')])
      .executeTakeFirst();
    return `${Number(row?.count ?? 0)}:${Number(row?.newest ?? 0)}`;
  }
}
