import type { Log } from '../log.js';

/** Why an instance is not ready: the load balancer's probe shows it, the operator reads it. */
export type NotReadyReason = 'stopping' | 'starting' | 'database' | 'migrations';

export type ReadinessAnswer = { readonly ready: true } | { readonly ready: false; readonly reason: NotReadyReason; readonly message: string };

/** What readiness asks of the rest of the server (services.ts and app.ts give it). */
export interface ReadinessSources {
  /** The migrations this code knows that the database has not recorded; throws when the database does not answer. */
  pendingMigrations(): Promise<string[]>;
  /** Whether the redirect side has started: change feed listening, link index loaded, domain redirects read. */
  started(): boolean;
  /** Whether the server has begun to stop (stop-signal.ts). */
  stopping(): boolean;
}

/**
 * A probe waits this long for the database at most: a load balancer's probe times out after a
 * second or a few, and a hung connection must read as "not ready", not as no answer at all.
 */
export const DATABASE_CHECK_TIMEOUT_MS = 2000;

/**
 * Whether this instance should be sent traffic (GET /readyz). Not once it has begun to stop
 * (from the first moment of SIGTERM); not before its redirect side has started;
 * not while the database does not answer or lacks a migration this code needs.
 * Probes that arrive while a check runs share it, so a burst of probes is one query.
 */
export class Readiness {
  private running: Promise<ReadinessAnswer> | undefined;
  /** The last database failure logged, so a failing probe every few seconds logs once, not each time. */
  private lastLogged: string | undefined;

  constructor(
    private readonly sources: ReadinessSources,
    private readonly log: Log,
    private readonly timeoutMs = DATABASE_CHECK_TIMEOUT_MS,
  ) {}

  async check(): Promise<ReadinessAnswer> {
    if (this.sources.stopping()) return STOPPING;
    if (!this.sources.started()) return STARTING;
    this.running ??= this.checkDatabase().finally(() => {
      this.running = undefined;
    });
    const answer = await this.running;
    // A stop that began while the database was asked wins.
    return this.sources.stopping() ? STOPPING : answer;
  }

  private async checkDatabase(): Promise<ReadinessAnswer> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
    });
    try {
      const pending = await Promise.race([this.sources.pendingMigrations(), late]);
      if (pending.length > 0) {
        this.note(`migrations: ${pending.join(', ')}`);
        return { ready: false, reason: 'migrations', message: `The database lacks ${pending.length} migration(s) this version needs` };
      }
      if (this.lastLogged !== undefined) this.log.info({}, 'ready again: the database answers');
      this.lastLogged = undefined;
      return READY;
    } catch (error) {
      this.note(`database: ${error instanceof Error ? error.message : String(error)}`);
      // The cause stays in the log: the probe answers on every host, to anyone.
      return DATABASE_DOWN;
    } finally {
      clearTimeout(timer);
    }
  }

  private note(problem: string): void {
    if (problem !== this.lastLogged) this.log.warn({ problem }, 'not ready');
    this.lastLogged = problem;
  }
}

const READY: ReadinessAnswer = Object.freeze({ ready: true });
const STOPPING: ReadinessAnswer = Object.freeze({ ready: false, reason: 'stopping', message: 'The server is stopping' });
const DATABASE_DOWN: ReadinessAnswer = Object.freeze({ ready: false, reason: 'database', message: 'The database does not answer' });
const STARTING: ReadinessAnswer = Object.freeze({ ready: false, reason: 'starting', message: 'The server is starting' });
