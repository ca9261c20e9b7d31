// Who writes a SQLite file when: the server's connection (group commits of acknowledged writes)
// and the background thread's (click counts, click events, rollups) take turns through two shared
// counters, so that neither waits for SQLite's write lock inside the database driver.
// better-sqlite3 waits for a lock synchronously: a group commit that met a thread transaction
// under way stalled the whole event loop (every redirect) until it ended.
//
// - The server goes first: the thread starts no transaction while a server write is under way
//   (it waits, at most MAX_THREAD_WAIT_MS, so that a stream of them cannot hold it back for good).
// - The thread's transaction, once begun, is waited for by the server asynchronously
//   (Atomics.waitAsync), with the event loop free, instead of in the driver.
// The handshake is Dekker's: each side raises its own counter, then reads the other's; the thread
// steps back when it sees the server, so both never wait for each other.

/** Index of the server's writes under way. */
const SERVER = 0;
/** Index of the thread's flag: 1 while it is in a transaction. */
const THREAD = 1;
/** The longest the thread waits for the server's writes before it begins anyway. */
const MAX_THREAD_WAIT_MS = 200;
/** The longest a server write waits for the thread's transaction; then the driver's own lock wait takes over. */
const MAX_SERVER_WAIT_MS = 5000;

/** The shared counters, made by the server and handed to the thread. */
export const newWriteTurns = () => new Int32Array(new SharedArrayBuffer(8));

/** The server's side: around each group commit. */
export interface WritePriority {
  /** Marks a server write as under way, and resolves once no thread transaction is. */
  enter(): Promise<void>;
  leave(): void;
}

export function serverTurns(turns: Int32Array): WritePriority & { threadGone(): void } {
  return {
    async enter() {
      Atomics.add(turns, SERVER, 1);
      if (Atomics.load(turns, THREAD) === 0) return;
      const until = Date.now() + MAX_SERVER_WAIT_MS;
      // A pending waitAsync is no handle of the event loop: without this timer, a process with
      // nothing else to do (the admin CLI) would exit in the middle of its write.
      const keepAlive = setTimeout(() => undefined, MAX_SERVER_WAIT_MS);
      try {
        while (Atomics.load(turns, THREAD) !== 0 && Date.now() < until) {
          const wait = Atomics.waitAsync(turns, THREAD, 1, until - Date.now());
          if (wait.async) await wait.value;
        }
      } finally {
        clearTimeout(keepAlive);
      }
    },
    leave() {
      Atomics.sub(turns, SERVER, 1);
      Atomics.notify(turns, SERVER);
    },
    /** The thread exited: a flag it left raised must not hold the server's writes. */
    threadGone() {
      Atomics.store(turns, THREAD, 0);
      Atomics.notify(turns, THREAD);
    },
  };
}

/** The thread's side: runs one transaction of the thread in its turn. */
export async function inThreadTurn<T>(turns: Int32Array, work: () => T | Promise<T>): Promise<T> {
  const until = Date.now() + MAX_THREAD_WAIT_MS;
  for (;;) {
    Atomics.store(turns, THREAD, 1);
    const server = Atomics.load(turns, SERVER);
    if (server === 0 || Date.now() >= until) break;
    // The server is writing, or about to: step back and wait for it.
    lowerThreadFlag(turns);
    Atomics.wait(turns, SERVER, server, Math.max(until - Date.now(), 0));
  }
  try {
    return await work();
  } finally {
    lowerThreadFlag(turns);
  }
}

function lowerThreadFlag(turns: Int32Array): void {
  Atomics.store(turns, THREAD, 0);
  Atomics.notify(turns, THREAD);
}
