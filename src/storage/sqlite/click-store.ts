import { SqlClickStore } from '../sql/click-store.js';
import type { ClickBatch } from '../stores/clicks.js';
import type { SqliteConnection } from './connection.js';

export class SqliteClickStore extends SqlClickStore<SqliteConnection> {
  override add(batch: ClickBatch): Promise<void> {
    const { background } = this.connection;
    // Off the event loop when there is a background thread (SQLite files), else a durable write.
    if (background?.running) return background.addClicks(batch);
    return super.add(batch);
  }
}
