import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

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

/** What the redirect side has counted since start (services.ts), read at a scrape. */
export interface RedirectFigures {
  /** Link lookups by who answered: the link index, the LRU (a link, or a cached miss), or the store. */
  lookups: { index: number; cached: number; cachedMissing: number; store: number };
  /** Links held in the link index now. */
  indexLinks: number;
  /** Visits refused because the destination host is blocked. */
  blockedVisits: number;
  /** Click-count writes that failed and wait for the next flush. */
  failedClickWrites: number;
  /** Visit-limit count writes that failed and wait for the next flush. */
  failedVisitLimitWrites: number;
}

/** What the analytics recorder has done since start (analytics/visit-recorder.ts), read at a scrape. */
export interface VisitFigures {
  /** Visits noted and not yet written. */
  held: number;
  /** Visits turned away because the buffer was full. */
  dropped: number;
  /** Visits written to the store. */
  written: number;
  /** Seconds each flush with visits took, since the last read (each read takes them). */
  flushTimes: number[];
}

/** The webhooks' deliveries (webhooks/delivery-worker.ts and the outbox), read at a scrape. */
export interface WebhookFigures {
  /** Attempts by this process since start, by outcome: delivered (2xx), retried (failed, tried again later), failed (given up). */
  readonly outcomes: { readonly delivered: number; readonly retried: number; readonly failed: number };
  /** Deliveries waiting in the outbox (every instance's), and when the oldest of them happened (null: none). */
  queue(): Promise<{ readonly pending: number; readonly oldestCreatedAt: number | null }>;
}

/** What the metrics read from the rest of the server, when scraped. */
export interface MetricSources {
  /** Links made by this process since it started (links/link-service.ts). */
  linksCreated(): number;
  /** Click events waiting to be written, dropped since start because the buffer was full, written, and flush times. */
  visits(): VisitFigures;
  /** Link lookups by who answered, the link index's size, blocked visits, failed click writes (services.ts RedirectFigures). */
  redirects(): RedirectFigures;
  /** Links refused since start because their destination host is blocked (links/link-service.ts). */
  blockedCreates(): number;
  /** Webhook deliveries: attempts by outcome, and the outbox's queue. */
  webhooks: WebhookFigures;
}

/**
 * The server's Prometheus metrics (GET /metrics), in a registry of its own: Node's default process
 * metrics (event-loop lag, heap, RSS, GC, handles), and Brief's:
 * `brief_redirects_total{status}` (every answer of the redirect pipeline, both doors),
 * `brief_links_created_total`, `brief_http_requests_total{method,route,status}` (requests
 * Fastify routed; `route` is the route's template, never the raw path),
 * `brief_http_request_duration_seconds{method,route}` (API routes), `brief_rate_limited_total{limit}`,
 * and analytics (`brief_analytics_visits_buffered`, `brief_analytics_visits_dropped_total`,
 * `brief_analytics_visits_written_total`, `brief_analytics_flush_duration_seconds`).
 */
export class Metrics {
  readonly registry = new Registry();
  /** Answers of the redirect pipeline by status: counted by the doors, read at a scrape. */
  readonly redirects = new StatusTally();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly apiDuration: Histogram<'method' | 'route'>;
  private readonly limited: Counter<'limit'>;
  /** Requests answered 503 because the database could not be reached (counted by countDatabaseError). */
  private unreachable = 0;

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
    this.totalCounter('brief_links_created_total', 'Links made by this process (API and web app; not found again by dedupe).', () =>
      sources.linksCreated(),
    );
    this.requests = new Counter({
      name: 'brief_http_requests_total',
      help: 'Requests answered through the router (the API, pages, probes; redirects the fast path answers are in brief_redirects_total), by route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.apiDuration = new Histogram({
      name: 'brief_http_request_duration_seconds',
      help: 'Time to answer an API call (/v2 and /v3 routes), from the request to the last byte handed to the socket.',
      labelNames: ['method', 'route'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    this.limited = new Counter({
      name: 'brief_rate_limited_total',
      help: 'Requests refused with 429 by a rate limit, by the limit (links, read, domain-verify, password).',
      labelNames: ['limit'],
      registers: [this.registry],
    });
    // One read of the recorder per scrape (it hands over its flush times once), shared by the four below:
    // the first of them to be collected reads it.
    let visits: VisitFigures | undefined;
    const visitFigures = () => {
      visits ??= sources.visits();
      return visits;
    };
    new Gauge({
      name: 'brief_analytics_visits_buffered',
      help: 'Click events noted and not yet written (ANALYTICS_BUFFER_MAX bounds them).',
      registers: [this.registry],
      collect() {
        visits = undefined; // a new scrape
        this.set(visitFigures().held);
      },
    });
    this.totalCounter(
      'brief_analytics_visits_dropped_total',
      'Click events dropped from analytics because the buffer was full (the click totals still count them).',
      () => visitFigures().dropped,
    );
    this.totalCounter(
      'brief_analytics_visits_written_total',
      'Visits written to the analytics store (a stored row may stand for several identical visits).',
      () => visitFigures().written,
    );
    new Histogram({
      name: 'brief_analytics_flush_duration_seconds',
      help: 'Time of each analytics flush that had visits to write: enrichment and the write, retries included.',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
      collect() {
        const figures = visitFigures();
        for (const seconds of figures.flushTimes) this.observe(seconds);
        figures.flushTimes = []; // observed once, whatever reads the metrics next
      },
    });
    new Counter({
      name: 'brief_redirect_cache_lookups_total',
      help: 'Link lookups of the redirect by who answered: index (the SQLite link index), cache (the LRU, a link), cached_missing (the LRU, a key known not to exist), store (a database read).',
      labelNames: ['result'],
      registers: [this.registry],
      collect() {
        this.reset();
        const { lookups } = sources.redirects();
        this.inc({ result: 'index' }, lookups.index);
        this.inc({ result: 'cache' }, lookups.cached);
        this.inc({ result: 'cached_missing' }, lookups.cachedMissing);
        this.inc({ result: 'store' }, lookups.store);
      },
    });
    new Gauge({
      name: 'brief_link_index_links',
      help: 'Links held in the in-memory link index (SQLite; 0 on PostgreSQL or with LINK_INDEX_MAX=0).',
      registers: [this.registry],
      collect() {
        this.set(sources.redirects().indexLinks);
      },
    });
    new Counter({
      name: 'brief_blocked_refusals_total',
      help: 'Refusals because a destination host is on the blocklist: create (a link refused with 422), visit (a redirect answered 410).',
      labelNames: ['action'],
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ action: 'create' }, sources.blockedCreates());
        this.inc({ action: 'visit' }, sources.redirects().blockedVisits);
      },
    });
    this.webhookMetrics(sources.webhooks);
    const metrics = this;
    new Counter({
      name: 'brief_database_errors_total',
      help: 'Database failures: request (a request answered 503, the database unreachable), click_write (a click-count write that failed and waits for the next flush), visit_limit_write (the same for the visits counted against limited links).',
      labelNames: ['during'],
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ during: 'request' }, metrics.unreachable);
        const redirects = sources.redirects();
        this.inc({ during: 'click_write' }, redirects.failedClickWrites);
        this.inc({ during: 'visit_limit_write' }, redirects.failedVisitLimitWrites);
      },
    });
  }

  /** `brief_webhook_deliveries_total{outcome}`, `brief_webhook_queue_depth`, `brief_webhook_oldest_undelivered_seconds`. */
  private webhookMetrics(webhooks: WebhookFigures): void {
    new Counter({
      name: 'brief_webhook_deliveries_total',
      help: 'Webhook delivery attempts by this process: delivered (answered 2xx), retried (failed, tried again later), failed (given up 24 h after the event).',
      labelNames: ['outcome'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [outcome, count] of Object.entries(webhooks.outcomes)) this.inc({ outcome }, count);
      },
    });
    // One query a scrape, shared by the two gauges: the first collected asks, the second reads its answer.
    let queue: ReturnType<WebhookFigures['queue']> | undefined;
    new Gauge({
      name: 'brief_webhook_queue_depth',
      help: 'Webhook deliveries waiting to be sent or retried, of every instance (the outbox).',
      registers: [this.registry],
      async collect() {
        queue = webhooks.queue();
        this.set((await queue).pending);
      },
    });
    new Gauge({
      name: 'brief_webhook_oldest_undelivered_seconds',
      help: 'Age of the oldest webhook delivery still waiting (0 when none is).',
      registers: [this.registry],
      async collect() {
        const { oldestCreatedAt } = await (queue ?? webhooks.queue());
        queue = undefined;
        this.set(oldestCreatedAt === null ? 0 : Math.max(0, (Date.now() - oldestCreatedAt) / 1000));
      },
    });
  }

  /** A counter of a total another part of the server keeps, read at each scrape. */
  private totalCounter(name: string, help: string, total: () => number): void {
    new Counter({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(total());
      },
    });
  }

  /** A request that failed because the database could not be reached (answered 503). */
  countDatabaseError(): void {
    this.unreachable++;
  }

  /**
   * One routed request: its method, its route's template (`none` when no route matched), its status,
   * the limit its route declares and how long it took (ms).
   */
  countRequest(method: string, route: string | undefined, status: number, limit: string | undefined, elapsedMs: number): void {
    this.requests.inc({ method, route: route ?? 'none', status: String(status) });
    if (route !== undefined && (route.startsWith('/v2/') || route.startsWith('/v3/'))) {
      this.apiDuration.observe({ method, route }, elapsedMs / 1000);
    }
    if (status === 429 && limit !== undefined) this.limited.inc({ limit });
  }
}
