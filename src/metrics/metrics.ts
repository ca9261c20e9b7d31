import { Counter, collectDefaultMetrics, Registry } from 'prom-client';

/** The highest HTTP status a tally holds; any other counts as 599 (none is expected). */
const MAX_STATUS = 599;

/**
 * Answers counted by status in a plain array: counting is an index and an add, no allocation, so
 * the redirect fast path can afford it. Read when Prometheus scrapes.
 */
export class StatusTally {
  private readonly counts = new Float64Array(MAX_STATUS + 1);

  count(status: number): void {
    this.counts[status >= 100 && status <= MAX_STATUS ? status : MAX_STATUS]!++;
  }

  /** [status, count] for each status counted at least once. */
  *entries(): Generator<[number, number]> {
    for (let status = 100; status <= MAX_STATUS; status++) {
      const count = this.counts[status]!;
      if (count > 0) yield [status, count];
    }
  }
}

/** What the metrics read from the rest of the server, when scraped. */
export interface MetricSources {
  /** Links made by this process since it started (links/link-service.ts). */
  linksCreated(): number;
}

/**
 * The server's Prometheus metrics (GET /metrics), in a registry of its own: Node's default process
 * metrics (event-loop lag, heap, RSS, GC, handles), and Brief's:
 * `brief_redirects_total{status}` (every answer of the redirect pipeline, both doors),
 * `brief_links_created_total` and `brief_http_requests_total{method,route,status}` (requests
 * Fastify routed; `route` is the route's template, never the raw path).
 */
export class Metrics {
  readonly registry = new Registry();
  /** Answers of the redirect pipeline by status: counted by the doors, read at a scrape. */
  readonly redirects = new StatusTally();
  private readonly requests: Counter<'method' | 'route' | 'status'>;

  constructor(sources: MetricSources) {
    collectDefaultMetrics({ register: this.registry });
    const redirects = this.redirects;
    new Counter({
      name: 'brief_redirects_total',
      help: "Answers to short URLs (GET, HEAD and POST /{key}) and domains' home redirects, by HTTP status.",
      labelNames: ['status'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [status, count] of redirects.entries()) this.inc({ status: String(status) }, count);
      },
    });
    new Counter({
      name: 'brief_links_created_total',
      help: 'Links made by this process (API and web app; not found again by dedupe).',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(sources.linksCreated());
      },
    });
    this.requests = new Counter({
      name: 'brief_http_requests_total',
      help: 'Requests answered through the router (the API, pages, probes; redirects the fast path answers are in brief_redirects_total), by route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
  }

  /** One routed request: its method, its route's template (`none` when no route matched) and its status. */
  countRequest(method: string, route: string | undefined, status: number): void {
    this.requests.inc({ method, route: route ?? 'none', status: String(status) });
  }
}
