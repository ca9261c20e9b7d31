// Loaded into the soaking server with `--import` (plain JavaScript: the server runs dist/ without tsx).
// Every 5 s, in the main thread and in the SQLite background thread alike (a worker inherits the flag),
// it appends to BRIEF_SOAK_MEMORY_FILE one line: the process's RSS and this thread's V8 heap, and the
// heap in use just after this thread's last full (mark-compact) GC. RSS alone cannot tell a leak from
// garbage V8 has not collected yet: the soak's first runs after decision 0012 saw the main heap saw
// between ~40 and ~250 MB while what survived a full GC stayed near 40 MB.
import fs from 'node:fs';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

const file = process.env.BRIEF_SOAK_MEMORY_FILE;
if (file) {
  const thread = isMainThread ? 'main' : 'worker';
  const started = Date.now();
  let liveMb = null;
  const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Read right after the GC ends: close to, not exactly, what it left (allocation restarts at once).
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) liveMb = mb(process.memoryUsage().heapUsed);
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const m = process.memoryUsage();
    const line = {
      second: Math.round((Date.now() - started) / 1000),
      thread,
      rssMb: mb(m.rss),
      heapTotalMb: mb(m.heapTotal),
      heapUsedMb: mb(m.heapUsed),
      liveMb,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 5000).unref();
}
