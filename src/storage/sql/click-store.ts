import { applyClickBatch } from './click-writes.js';
import type { Connection } from './connection.js';
import type { ClickBatch, ClickStore } from './stores/clicks.js';

export class SqlClickStore implements ClickStore {
  constructor(private readonly connection: Connection) {}

  add(batch: ClickBatch): Promise<void> {
    const { background } = this.connection;
    // Off the event loop when there is a background thread (SQLite files), else a durable write.
    if (background?.running) return background.addClicks(batch);
    return this.connection.write((trx) => applyClickBatch(trx, batch));
  }
}
