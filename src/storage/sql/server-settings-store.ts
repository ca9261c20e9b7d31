import type { Connection } from '../connection.js';
import type { ServerSettingsStore } from '../stores/server-settings.js';

export class SqlServerSettingsStore implements ServerSettingsStore {
  constructor(private readonly connection: Connection) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.connection.db.selectFrom('server_settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value;
  }

  put(key: string, value: string): Promise<string | undefined> {
    return this.connection.write(async (db) => {
      // Read and replaced in one transaction; instances that start together each replace it whole.
      const before = await db.selectFrom('server_settings').select('value').where('key', '=', key).executeTakeFirst();
      await db
        .insertInto('server_settings')
        .values({ key, value, updated_at: Date.now() })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: Date.now() }))
        .execute();
      return before?.value;
    });
  }
}
