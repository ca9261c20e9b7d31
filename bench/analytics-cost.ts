// `npm run build && node --import tsx bench/analytics-cost.ts [LINKS] [SECONDS] [--server DIR]`:
// the server's CPU per visit with analytics off and on, everything counted: the redirect, the
// recording, and the background thread's writes that finish after the load (the benchmark's
// ratios see only what falls inside its rounds, so a thread that lags looks cheaper there).
// Cold redirects (random links), one server process pinned like the benchmark's; each figure is
// the CPU from the start of the load until the process has been idle for a second, divided by
// the redirects answered. See docs/benchmarks-history.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { droppedVisits, pinSelf, startBrief } from '../harness/servers.js';
import { runLoad } from './load.js';
import { preloadLinks } from './preload.js';
import { DOMAIN } from './scenarios.js';

const args = process.argv.slice(2);
const serverAt = args.indexOf('--server');
const root = serverAt >= 0 ? args[serverAt + 1] : undefined;
const [links = 200_000, seconds = 10] = args.filter((a, i) => !a.startsWith('--') && (serverAt < 0 || i !== serverAt + 1)).map(Number);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

pinSelf();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'brief-analytics-cost-'));
try {
  for (const analytics of ['off', 'full']) {
    const file = path.join(dir, `${analytics}.db`);
    await preloadLinks(file, DOMAIN, links);
    let warmup = 0;
    let requests = 0;
    const server = await startBrief('brief', { dbFile: file, domain: DOMAIN, env: { ANALYTICS: analytics }, root });
    try {
      const load = (s: number) =>
        runLoad({
          port: server.port,
          host: DOMAIN,
          request: { kind: 'link', links },
          connections: 50,
          seconds: s,
        });
      warmup = (await load(2)).requests; // warm-up: JIT, caches
      await sleep(3000); // and its writes
      const before = server.cpuSeconds();
      ({ requests } = await load(seconds));
      const inLoad = server.cpuSeconds() - before;
      // Until the thread has written what the load left behind: a second with under 2% of a core.
      let last = server.cpuSeconds();
      for (;;) {
        await sleep(1000);
        const now = server.cpuSeconds();
        if (now - last < 0.02) break;
        last = now;
      }
      const all = last - before;
      const micros = (cpu: number) => ((cpu * 1e6) / requests).toFixed(1);
      console.log(
        `ANALYTICS=${analytics}: ${requests} redirects (${Math.round(requests / seconds)}/s), ` +
          `CPU ${micros(inLoad)} µs a visit during the load, ${micros(all)} µs all in (${(all - inLoad).toFixed(2)} s after it)`,
      );
    } finally {
      await server.stop();
    }
    // Every visit answered is a click count, and an event or a drop (the readiness probes visit `/`, no link).
    const db = new SQLite(file, { readonly: true });
    const events = db.prepare('select coalesce(sum(clicks), 0) as visits, count(*) as rows from click_events').get() as {
      visits: number;
      rows: number;
    };
    const clicks = db.prepare('select coalesce(sum(clicks), 0) as clicks from link_clicks').pluck().get() as number;
    db.close();
    console.log(
      `  ${warmup + requests} visits with the warm-up: ${clicks} click counts, ${events.visits} in ${events.rows} event rows, ` +
        `${droppedVisits(server)} dropped (buffer full)`,
    );
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
