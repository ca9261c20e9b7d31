import { buildApp } from './app.js';
import type { Config } from './config.js';
import { databaseFilesOpenToOthers, openMigratedDatabase } from './services.js';
import { logStart } from './start-log.js';

/**
 * `brief serve`: migrate, listen, and on SIGTERM/SIGINT stop accepting, let in-flight
 * requests finish, flush clicks, close the database and exit 0.
 */
export async function serve(config: Config): Promise<void> {
  // Looked at before the database opens: what exists already (what Brief creates is private).
  const openToOthers = databaseFilesOpenToOthers(config);
  const database = await openMigratedDatabase(config);
  const app = buildApp(config, { database });
  for (const { path, mode } of openToOthers) {
    app.log.warn({ path, mode }, 'other users of this machine can open the database here: chmod 700 its folder and 600 its files');
  }
  // A promise nobody awaited that failed (a dropped connection, say) is a bug to log,
  // not a reason to stop serving every other request.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  logStart(config, app.log);
}
