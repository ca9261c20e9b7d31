import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setImmediate } from 'node:timers/promises';
import type { Log } from '../log.js';
import { within } from '../nested-maps.js';
import { PeriodicWriter } from '../periodic-writer.js';
import type { AnalyticsStore, ClickEvent, ClickEventBatch } from '../storage/stores/analytics.js';
import type { LinkTarget } from '../storage/stores/links.js';
import { eventOf, type RawVisit, sameVisitor, type VisitEnricher, type VisitProfile } from './enrich.js';

/**
 * Events per write (one transaction). On SQLite's background thread a write of 4,096 events to
 * distinct links costs ~15% less an event than one of 1,024 (bench/event-write-cost.ts; 1,024
 * had cost ~20% less than 256), and holds the lock ~60–80 ms on a quiet machine, about as long as
 * a catch-up of the link rows (storage/sqlite/link-rollups.ts), which a shorten waits out with the event loop free
 * (write-turns.ts).
 */
const CHUNK = 4096;
/** Visits enriched between two turns of the event loop (about half a millisecond of work). */
const SLICE = 256;
/** Flush times held for GET /metrics between two scrapes; past it the oldest are forgotten. */
const FLUSH_TIMES_MAX = 4096;

interface VisitRecorderOptions {
  /** Visits held in memory at most, written or not; past it new visits are dropped and counted. */
  readonly max: number;
  /** Whether the visitor's referrer, language and addresses are noted at all (ANALYTICS=full). */
  readonly full: boolean;
  /** Whether X-Forwarded-For is noted (TRUST_PROXY is set). */
  readonly forwarded: boolean;
}

/**
 * Records every counted visit as a click event, off the request path. On the request path
 * `observe` only appends one small record of references the request already holds (no
 * parsing, no string building) to a bounded buffer. Every CLICK_FLUSH_MS, and on stop, the
 * buffer is taken, enriched in chunks (VisitEnricher: user agent, bots, country, …) and
 * written through the AnalyticsStore. A chunk that fails is kept, enriched, and retried first
 * under the same number (the store applies a number at most once, as for click counts); the
 * buffer then fills up to its bound, and visits past it are dropped and counted (a warning
 * with the count after each flush). kill -9 loses what was held: at most a flush interval's
 * visits while the database is up.
 */
export class VisitRecorder extends PeriodicWriter {
  private pending: RawVisit[] = [];
  /** Visits accepted and not yet written: pending, being enriched, or in the unconfirmed chunk. */
  private held = 0;
  private dropped = 0;
  private written = 0;
  private flushTimes: number[] = [];
  private reportedDrops = 0;
  private unconfirmed: ClickEventBatch | undefined;
  /** Events enriched and folded, not yet sent: those after a chunk whose write failed. */
  private ready: ClickEvent[] = [];
  private readonly writer = randomUUID();
  private seq = 0;

  constructor(
    private readonly store: AnalyticsStore,
    private readonly enricher: VisitEnricher,
    log: Log,
    private readonly options: VisitRecorderOptions,
  ) {
    super(log, 'click event');
  }

  /**
   * The visit observer (redirect-pipeline.ts): on the request path, so it only appends, or adds one
   * to the visit before when this one is alike (the same link, second, headers and rule taken: a burst).
   * `taken` (what a visit of a link with rules took) is recorded as the visitor's dimensions are: only
   * with ANALYTICS=full and not for an opted-out visit, since a rule's conditions say things of the visitor.
   */
  readonly observe = (target: LinkTarget, request: IncomingMessage, taken?: string): void => {
    if (this.held >= this.options.max) {
      this.dropped++;
      return;
    }
    this.held++;
    const headers = request.headers;
    const optedOut = headers.dnt === '1' || headers['sec-gpc'] === '1';
    const full = this.options.full && !optedOut;
    const now = Date.now();
    const visit: RawVisit = {
      time: now - (now % 1000),
      linkId: target.id,
      userAgent: optedOut ? undefined : headers['user-agent'],
      referer: full ? headers.referer : undefined,
      acceptLanguage: full ? headers['accept-language'] : undefined,
      socketAddress: full ? request.socket.remoteAddress : undefined,
      forwardedFor: full && this.options.forwarded ? headers['x-forwarded-for'] : undefined,
      optedOut,
      rule: full ? (taken ?? null) : null,
      visits: 1,
    };
    const last = this.pending.at(-1);
    if (last !== undefined && last.linkId === visit.linkId && last.time === visit.time && last.rule === visit.rule && sameVisitor(last, visit))
      last.visits++;
    else this.pending.push(visit);
  };

  /** Visits dropped so far because the buffer was full. */
  get droppedVisits(): number {
    return this.dropped;
  }

  /** Visits accepted and not yet written (GET /metrics). */
  get heldVisits(): number {
    return this.held;
  }

  /** Visits written to the store so far (GET /metrics). */
  get writtenVisits(): number {
    return this.written;
  }

  /**
   * How long each flush that had visits to write took (seconds), since the last call: GET /metrics
   * adds them to its histogram at a scrape, so nothing is pushed to the metrics on the write path.
   */
  takeFlushTimes(): number[] {
    const times = this.flushTimes;
    this.flushTimes = [];
    return times;
  }

  protected async writePending(): Promise<void> {
    if (!this.unconfirmed && this.pending.length === 0 && this.ready.length === 0) return;
    const started = performance.now();
    try {
      await this.writeHeld();
    } finally {
      if (this.flushTimes.length >= FLUSH_TIMES_MAX) this.flushTimes.shift();
      this.flushTimes.push((performance.now() - started) / 1000);
    }
  }

  private async writeHeld(): Promise<void> {
    if (this.unconfirmed) {
      if (!(await this.tryWrite(this.unconfirmed))) return;
      this.unconfirmed = undefined;
    }
    // The whole flush's visits folded first, so that a link visited again within the flush costs
    // nothing more to store (a hot or Zipf load), then written CHUNK events a transaction.
    const visits = this.pending;
    this.pending = [];
    const folded = new Fold();
    for (let k = 0; k < visits.length; k++) {
      const visit = visits[k]!;
      folded.add(visit, this.enricher.profile(visit));
      if ((k + 1) % SLICE === 0 && k + 1 < visits.length) await setImmediate();
    }
    this.enricher.trim();
    const events = this.ready.length === 0 ? folded.events() : this.ready.concat(folded.events());
    this.ready = [];
    for (let i = 0; i < events.length; i += CHUNK) {
      const batch: ClickEventBatch = { writer: this.writer, seq: ++this.seq, events: events.slice(i, i + CHUNK) };
      if (!(await this.tryWrite(batch))) {
        this.unconfirmed = batch;
        // Never sent: written after it, still held (enriched, so no address is kept meanwhile).
        this.ready = events.slice(i + CHUNK);
        return;
      }
    }
  }

  private async tryWrite(batch: ClickEventBatch): Promise<boolean> {
    try {
      await this.store.add(batch);
      const visits = visitsIn(batch);
      this.held -= visits;
      this.written += visits;
      return true;
    } catch (error) {
      this.log.warn({ err: error, events: visitsIn(batch) }, 'click event flush failed; will retry');
      return false;
    }
  }

  /** After each flush: how many visits the full buffer turned away since the last report. */
  protected override afterFlush(): void {
    if (this.dropped === this.reportedDrops) return;
    this.log.warn(
      { dropped: this.dropped - this.reportedDrops, droppedTotal: this.dropped, held: this.held },
      'click event buffer full (ANALYTICS_BUFFER_MAX): visits dropped from analytics',
    );
    this.reportedDrops = this.dropped;
  }
}

type Tally = { -readonly [K in keyof ClickEvent]: ClickEvent[K] };

/**
 * The events of a flush: visits alike in all else within the same second are one event with their
 * count (a burst of visits to one link costs one row). Visitors' profiles are shared objects
 * (VisitEnricher), so visits are told apart by the second, the profile's identity and the link,
 * without building a key for each; only a visit of a link with rules builds one, the link and the
 * rule it took (`7 rules.0`), so that visits that took different rules stay apart.
 */
export class Fold {
  private readonly bySecond = new Map<number, Map<VisitProfile, Map<number | string, Tally>>>();
  private lastTime = Number.NaN;
  private lastProfile: VisitProfile | undefined;
  private lastLinks = new Map<number | string, Tally>();

  add(visit: RawVisit, profile: VisitProfile): void {
    const links = visit.time === this.lastTime && profile === this.lastProfile ? this.lastLinks : this.linksOf(visit.time, profile);
    const key = visit.rule === null ? visit.linkId : `${visit.linkId} ${visit.rule}`;
    const tally = links.get(key);
    if (tally !== undefined) tally.clicks += visit.visits;
    else links.set(key, eventOf(visit, profile));
  }

  events(): ClickEvent[] {
    const events: ClickEvent[] = [];
    for (const profiles of this.bySecond.values()) for (const links of profiles.values()) for (const tally of links.values()) events.push(tally);
    return events;
  }

  private linksOf(time: number, profile: VisitProfile): Map<number | string, Tally> {
    const links = within(within(this.bySecond, time), profile);
    this.lastTime = time;
    this.lastProfile = profile;
    this.lastLinks = links;
    return links;
  }
}

const visitsIn = (batch: ClickEventBatch) => batch.events.reduce((sum, event) => sum + event.clicks, 0);
