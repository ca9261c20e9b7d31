import type { Log } from './log.js';

/**
 * Calls `poll` every `intervalMs`, one call at a time: while the database is slow or down, ticks are
 * skipped, not stacked. A call that throws is logged ("<what> poll failed; will retry") and the next tick
 * tries again. The timer keeps no process alive; clearInterval stops it. The blocklist and the link
 * change feed poll this way.
 */
export function pollEvery(intervalMs: number, poll: () => Promise<void>, log: Log, what: string): NodeJS.Timeout {
  let polling = false;
  const timer = setInterval(async () => {
    if (polling) return;
    polling = true;
    try {
      await poll();
    } catch (err) {
      log.warn({ err }, `${what} poll failed; will retry`);
    } finally {
      polling = false;
    }
  }, intervalMs);
  timer.unref();
  return timer;
}
