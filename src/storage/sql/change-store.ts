import type { Connection } from '../connection.js';
import type { LinkChange, LinkChangeStore } from '../stores/changes.js';

export class SqlLinkChangeStore implements LinkChangeStore {
  constructor(private readonly connection: Connection) {}

  async newestId(): Promise<number> {
    const newest = await this.connection.db
      .selectFrom('link_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(newest?.id ?? 0);
  }

  since(afterId: number, limit: number): Promise<LinkChange[]> {
    return this.connection.db
      .selectFrom('link_changes')
      .select(['id', 'domain', 'key'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async prune(before: number): Promise<void> {
    await this.connection.db.deleteFrom('link_changes').where('created_at', '<', before).execute();
  }
}
