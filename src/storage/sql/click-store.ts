import type { Connection } from '../connection.js';
import type { ClickBatch, ClickStore } from '../stores/clicks.js';
import { applyClickBatch } from './click-writes.js';

/** Click counts, added in a durable write on either dialect. */
export class SqlClickStore<C extends Connection = Connection> implements ClickStore {
  constructor(protected readonly connection: C) {}

  add(batch: ClickBatch): Promise<void> {
    return this.connection.write((trx) => applyClickBatch(trx, batch));
  }
}
