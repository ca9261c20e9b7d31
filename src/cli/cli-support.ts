// What every `brief` admin command shares: the services on a migrated database, a plain table
// for lists, and the error for a command called the wrong way.
import type { Command } from 'commander';
import { type Config, loadConfig } from '../config.js';
import { BriefError } from '../errors.js';
import { consoleLog } from '../log.js';
import { commandDomains, createServices, type Database, openMigratedDatabase, type Services } from '../services.js';
import { openSharedState } from '../shared-state/shared-state.js';

/**
 * The configuration a command works with on this database: its own environment's, except for the domains
 * when a server has started on the database and recorded others (its BASE_URL, PUBLIC_DOMAINS): then the
 * server's, and one line on stderr naming both (decision 0033). Links, invitation and reset links are then
 * made on addresses the server answers.
 */
export async function commandConfig(config: Config, database: Database): Promise<Config> {
  const { config: used, notice } = await commandDomains(config, database);
  if (notice) console.error(`brief: ${notice}`);
  return used;
}

/** Opens and migrates the database, runs one admin command, closes. */
export async function withServices<T>(run: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openMigratedDatabase(config, 2);
  // With REDIS_URL, running servers hear of CLI changes at once; they also find them
  // in the link_changes feed they poll, so a Redis that is down costs only latency.
  const shared = openSharedState(config, consoleLog);
  try {
    return await run(createServices(await commandConfig(config, database), database, shared, consoleLog));
  } finally {
    await shared.close();
    await database.close();
  }
}

/**
 * Declares `brief <group> <usage>`, which runs on the services (withServices): `run` is given them, then the
 * command's arguments and options as commander passes them. Returns the command, for its `.option(...)`s.
 */
export function serviceCommand<Args extends unknown[]>(
  group: Command,
  usage: string,
  description: string,
  run: (services: Services, ...args: Args) => Promise<void>,
): Command {
  return group
    .command(usage)
    .description(description)
    .action((...args: unknown[]) => withServices((services) => run(services, ...(args as Args))));
}

export function table(rows: Array<Record<string, unknown>>): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0]!);
  const cells = rows.map((row) => columns.map((c) => (row[c] === null || row[c] === undefined ? '-' : String(row[c]))));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...cells.map(line)].join('\n');
}

export const when = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A mistake in how a command was called. */
export class UsageError extends Error {}

/**
 * For `.catch()` after a command that names an account: "No account named …" says what to run to make
 * it (the README's first steps make the account before its token; a token never makes an account, so a
 * typo cannot make a second one).
 */
export function accountHint(name: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof BriefError && error.code === 'E_NOT_FOUND' && error.message.startsWith('No account named')) {
      throw new UsageError(`No account named "${name}": make it first with: brief account create ${name}`);
    }
    throw error;
  };
}
