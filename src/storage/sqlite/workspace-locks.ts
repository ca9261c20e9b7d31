import type { WorkspaceLocks } from '../sql/workspace-locks.js';

const nothing = async (): Promise<void> => {};

/** SQLite has one writer: a write about a workspace never runs beside another, so there is nothing to lock. */
export const sqliteWorkspaceLocks: WorkspaceLocks = {
  lockWorkspace: nothing,
  shareWorkspace: nothing,
  lockWorkspacesOf: nothing,
};
