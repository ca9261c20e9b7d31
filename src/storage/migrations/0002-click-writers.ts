import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// A click flush whose connection drops after COMMIT reaches the server looks failed
// to the instance, which keeps its counts and retries. To apply each batch exactly once,
// every instance numbers its batches and records here, in the batch's own transaction,
// the last number it applied; a retry of a batch that did commit changes nothing.
export function clickWriters(dialect: Dialect) {
  const big = dialect === 'sqlite' ? 'integer' : 'bigint';
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('click_writers')
        .addColumn('writer', 'text', (c) => c.primaryKey())
        .addColumn('seq', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .execute();
    },
  };
}
