import { buildApp } from './app.js';
import type { Config } from './config.js';
import { StopSignal } from './health/stop-signal.js';
import { databaseFilesOpenToOthers, openMigratedDatabase, recordServerDomains } from './services.js';
import { logStart } from './start-log.js';

/** While stopping, connections that fall idle are closed this often (keep-alive would hold them for 72 s). */
const IDLE_SWEEP_MS = 100;
/** After the requests, the last writes (clicks, analytics) and the database's close get this long at least. */
const LAST_WRITES_MIN_MS = 5000;

/**
 * `brief serve`: migrate, listen, and stop gracefully on SIGTERM/SIGINT (docs/operations.md):
 * GET /readyz answers 503 from the first moment; no new connection is accepted; requests in flight
 * finish, for up to SHUTDOWN_GRACE_MS, after which they are cut; counted clicks and analytics are
 * written; the database is closed; exit 0. Exit 1 if those writes fail or do not end in time.
 */
export async function serve(config: Config): Promise<void> {
  // Looked at before the database opens: what exists already (what Brief creates is private).
  const openToOthers = databaseFilesOpenToOthers(config);
  const database = await openMigratedDatabase(config);
  const stopSignal = new StopSignal();
  // Requests that reach a stopping server on a connection it still has open are answered (with
  // `Connection: close`), not refused with 503: the load balancer has sent them already.
  const app = buildApp(config, { database, stopSignal });
  for (const { path, mode } of openToOthers) {
    app.log.warn({ path, mode }, 'other users of this machine can open the database here: chmod 700 its folder and 600 its files');
  }
  // A promise nobody awaited that failed (a dropped connection, say) is a bug to log,
  // not a reason to stop serving every other request.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));

  const shutdown = async (signal: string) => {
    if (stopSignal.stopping) return;
    stopSignal.begin(); // GET /readyz: 503 from now on
    const graceMs = config.shutdownGraceMs;
    app.log.info({ signal, graceMs }, 'stopping: no new connections; finishing the requests in flight');
    const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cut = setTimeout(() => {
      app.log.warn({ graceMs }, 'stopping: requests still running after SHUTDOWN_GRACE_MS are cut');
      app.server.closeAllConnections();
    }, graceMs);
    const giveUp = setTimeout(() => {
      app.log.error('stopping: the last writes did not finish in time; exiting without them');
      process.exit(1);
    }, graceMs + Math.max(graceMs, LAST_WRITES_MIN_MS));
    try {
      // Stops accepting, waits for the requests (or the cut), then writes clicks and analytics (app.ts onClose).
      await app.close();
      clearInterval(idle);
      clearTimeout(cut);
      await database.close();
      clearTimeout(giveUp);
      app.log.info('stopped');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  // For the CLI: the domains this server serves, which its commands then use (decision 0033).
  await recordServerDomains(config, database, app.log);
  logStart(config, app.log);
}
