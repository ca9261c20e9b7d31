// Figures read from a Brief server for the benchmarks: the visits its SQLite database holds, its CPU by
// thread (/proc), and a counter of its GET /metrics.
import fs from 'node:fs';
import http from 'node:http';
import Database from 'better-sqlite3';

/** What a SQLite database holds of the visits (read once the server has stopped and flushed). */
export interface VisitTotals {
  /** The click totals: the sum of link_clicks. */
  counted: number;
  /** Visits of people the analytics stored: events (a row counts `clicks` identical visits), or the workspace rollups without them. */
  stored: number;
}

export function visitTotals(dbFile: string): VisitTotals {
  const db = new Database(dbFile, { readonly: true });
  const sum = (query: string) => (db.prepare(query).get() as { n: number }).n;
  try {
    const hasEvents = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'click_events'").get() !== undefined;
    return {
      counted: sum('SELECT coalesce(sum(clicks), 0) AS n FROM link_clicks'),
      stored: hasEvents
        ? sum('SELECT coalesce(sum(clicks), 0) AS n FROM click_events WHERE bot IS NULL')
        : sum("SELECT coalesce(sum(clicks), 0) AS n FROM click_rollups WHERE link_id = 0 AND period = 'quarter' AND dimension = 'clicks'"),
    };
  } finally {
    db.close();
  }
}

/** CPU seconds of each thread of a process, by thread id (utime + stime of /proc/PID/task/TID/stat). */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}
// USER_HZ, the unit of /proc times.
const CLOCK_TICKS = 100;

export interface ThreadSplit {
  /** The main thread: the event loop, answering the redirects and noting the visits. */
  main: number;
  /**
   * The busiest other thread: the SQLite background thread that writes the visits and the click totals
   * (Node 20 names every thread "node", so it is told apart by its work: at thousands of visits a second
   * it is far ahead of V8's helper threads).
   */
  writer: number;
  /** Every other thread: V8's garbage collection and compiler helpers, libuv's pool. */
  rest: number;
}

/** How the CPU a process used between two readings of threadCpuSeconds split between its threads. */
export function splitThreadCpu(pid: number, before: Map<number, number>, after: Map<number, number>): ThreadSplit {
  const used = [...after].map(([tid, seconds]) => ({ tid, seconds: seconds - (before.get(tid) ?? 0) }));
  const main = used.find((t) => t.tid === pid)?.seconds ?? 0;
  const others = used.filter((t) => t.tid !== pid).map((t) => t.seconds);
  const writer = Math.max(0, ...others);
  const total = others.reduce((n, s) => n + s, 0);
  return { main, writer, rest: total - writer };
}

/** A counter of the server's GET /metrics (Prometheus text), or undefined when absent. */
export function metricValue(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

/** GET /metrics of a server on its own address, or '' when it has none. */
export function scrapeMetrics(port: number): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? body : ''));
    });
    request.on('error', () => resolve(''));
  });
}
