import { createHash } from 'node:crypto';
import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import { openDatabase } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { linkKey, linkUrl } from './link-keys.js';
import { CARDED_LINK } from './scenarios.js';

/**
 * Makes a SQLite database with `count` links, fast: the real migrations first, then one
 * bulk transaction of rows shaped exactly as LinkService.shorten writes them (anonymous
 * account, default domain, no slug or title, url_hash = sha256(url)).
 */
export async function preloadLinks(file: string, domain: string, count: number): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  const database = openDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(database);
  await database.close();

  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  const anonymous = sqlite.prepare(`select id from accounts where name = 'anonymous'`).get() as { id: number };
  const insert = sqlite.prepare(
    `insert into links (code, domain, key, slug, url, url_hash, title, account_id, status, created_at, deleted_at)
     values (?, ?, ?, null, ?, ?, null, ?, 'public', ?, null)`,
  );
  const now = Date.now();
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const code = linkKey(i);
      const url = linkUrl(i);
      insert.run(code, domain, code, url, createHash('sha256').update(url).digest(), anonymous.id, now - (count - i));
    }
  })();
  // One link with a card for chat apps (decision 0041), for "redirect hot card".
  sqlite
    .prepare('update links set preview_title = ?, preview_description = ?, preview_image = ? where key = ?')
    .run('Spring sale', 'Until Sunday, everywhere.', 'https://img.example.com/sale.jpg', linkKey(CARDED_LINK));
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
}

/** File size including the WAL after a checkpoint, divided by the number of links. */
export function bytesPerLink(file: string): { bytes: number; links: number; bytesPerLink: number } {
  const sqlite = new SQLite(file);
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const { n } = sqlite.prepare('select count(*) as n from links').get() as { n: number };
  sqlite.close();
  const size = (p: string) => (fs.existsSync(p) ? fs.statSync(p).size : 0);
  const bytes = size(file) + size(`${file}-wal`);
  return { bytes, links: n, bytesPerLink: Math.round(bytes / n) };
}
