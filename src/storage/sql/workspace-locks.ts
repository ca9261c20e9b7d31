import type { Kysely } from 'kysely';
import type { Tables } from '../tables.js';

/**
 * How writes about one workspace take turns, taken inside the caller's write before it reads what it
 * decides on. PostgreSQL runs writes side by side, so it locks the workspace's row
 * (postgres/workspace-locks.ts); SQLite runs one write at a time, so its locks do nothing
 * (sqlite/workspace-locks.ts).
 */
export interface WorkspaceLocks {
  /**
   * The workspace's row, for a change decided on what the write reads: two owners demoting each other
   * at once cannot both see the other still there, two claims of a domain count one after the other.
   */
  lockWorkspace(db: Kysely<Tables>, accountId: number): Promise<void>;
  /**
   * The workspace's row held shared while something a member makes is recorded (a token, an invitation):
   * their removal or a role lowered (lockWorkspace) waits for that write, and its revocation sees what it made.
   */
  shareWorkspace(db: Kysely<Tables>, accountId: number): Promise<void>;
  /** The rows of every workspace the user belongs to, in id order (so two removals never deadlock): the user's removal. */
  lockWorkspacesOf(db: Kysely<Tables>, userId: number): Promise<void>;
}
