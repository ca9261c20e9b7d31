import { sql } from 'kysely';
import type { Connection } from '../connection.js';
import type { VisitLimitStore } from '../stores/visit-limits.js';

// Ids per read: within every engine's limit on bound parameters.
const CHUNK = 500;

export class SqlVisitLimitStore implements VisitLimitStore {
  constructor(private readonly connection: Connection) {}

  async add(visits: ReadonlyArray<readonly [number, number]>, ids: readonly number[]): Promise<Map<number, number>> {
    if (visits.length > 0) {
      await this.connection.write(async (db) => {
        for (const [id, count] of visits) {
          await db
            .updateTable('links')
            .set({ limited_visits: sql`limited_visits + ${count}` })
            .where('id', '=', id)
            .execute();
        }
      });
    }
    const totals = new Map<number, number>();
    for (let i = 0; i < ids.length; i += CHUNK) {
      const rows = await this.connection.db
        .selectFrom('links')
        .select(['id', 'limited_visits'])
        .where('id', 'in', ids.slice(i, i + CHUNK))
        .execute();
      for (const row of rows) totals.set(row.id, Number(row.limited_visits));
    }
    return totals;
  }
}
