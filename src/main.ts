#!/usr/bin/env node
// `brief`: the server and the admin CLI. Every command reads the same environment as the server.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { ConfigError, loadConfig } from './config.js';
import { BriefError } from './errors.js';
import { consoleLog } from './log.js';
import { serve } from './serve.js';
import { createServices, openMigratedDatabase, type Services } from './services.js';
import { openSharedState } from './shared-state/shared-state.js';

/** Opens and migrates the database, runs one admin command, closes. */
async function withServices<T>(run: (services: Services) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const database = await openMigratedDatabase(config, 2);
  // With REDIS_URL, running servers hear of CLI changes at once; they also find them
  // in the link_changes feed they poll, so a Redis that is down costs only latency.
  const shared = openSharedState(config, consoleLog);
  try {
    return await run(createServices(config, database, shared, consoleLog));
  } finally {
    await shared.close();
    await database.close();
  }
}

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

function table(rows: Array<Record<string, unknown>>): string {
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

const when = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const program = new Command('brief').description('Brief: a self-hosted URL shortener').showHelpAfterError(false);

program
  .command('serve')
  .description('run the HTTP server (migrates the database first)')
  .action(async () => serve(loadConfig()));

program
  .command('migrate')
  .description('bring the database schema up to date')
  .action(() =>
    withServices(async () => {
      console.log('database is up to date');
    }),
  );

const account = program.command('account').description('manage accounts');
account
  .command('create <name>')
  .description('create an account')
  .action((name: string) =>
    withServices(async ({ accounts }) => {
      const row = await accounts.create(name);
      console.log(`created account ${row.name} (id ${row.id})`);
    }),
  );
account
  .command('list')
  .description('list accounts')
  .action(() =>
    withServices(async ({ accounts }) => {
      const rows = await accounts.list();
      console.log(table(rows.map((r) => ({ id: r.id, name: r.name, created: when(r.createdAt) }))));
    }),
  );

const token = program.command('token').description('manage API tokens (only their SHA-256 hashes are stored)');
token
  .command('create <account>')
  .description('create a bearer token; it is printed once, alone on the last line')
  .option('--label <text>', 'what the token is for')
  .option('--expires-in <days>', 'expire after this many days', positiveInteger)
  .action((name: string, options: { label?: string; expiresIn?: number }) =>
    withServices(async ({ accounts }) => {
      const { token: secret, record } = await accounts.createToken(name, { label: options.label, expiresInDays: options.expiresIn });
      console.log(`created token ${record.id} for ${name}${record.expiresAt ? `, expires ${when(record.expiresAt)}` : ''}`);
      console.log('store it now: it cannot be shown again');
      console.log(secret);
    }),
  );
token
  .command('list <account>')
  .description("list an account's tokens")
  .action((name: string) =>
    withServices(async ({ accounts }) => {
      const rows = await accounts.listTokens(name);
      console.log(
        table(rows.map((r) => ({ id: r.id, label: r.label, created: when(r.createdAt), expires: when(r.expiresAt), revoked: when(r.revokedAt) }))),
      );
    }),
  );
token
  .command('revoke <tokenId>')
  .description('revoke a token by id')
  .action((id: string) =>
    withServices(async ({ accounts }) => {
      // Not positiveInteger(): an InvalidArgumentError thrown in an action is a CommanderError
      // that commander has not printed, so the user saw nothing.
      if (!/^\d+$/.test(id) || Number(id) < 1) throw new UsageError(`TOKEN_ID must be a whole number of at least 1, got "${id}"`);
      await accounts.revokeToken(Number(id));
      console.log(`revoked token ${id}`);
    }),
  );

const domain = program.command('domain').description('manage short domains');
domain
  .command('add <hostname>')
  .description('add a private domain of an account (--account) or a public one (--public); https:// unless a scheme is given')
  .option('--account <name>', 'the account that owns the private domain')
  .option('--public', 'a public domain, usable by everybody')
  .action((hostname: string, options: { account?: string; public?: boolean }) =>
    withServices(async ({ accounts, domains }) => {
      if (Boolean(options.account) === Boolean(options.public)) throw new UsageError('give exactly one of --account NAME or --public');
      const owner = options.account ? (await accounts.byName(options.account)).id : null;
      const added = await domains.add(hostname, owner);
      console.log(`added ${options.public ? 'public' : `private (${options.account})`} domain ${added.hostname} (${added.urlPrefix})`);
    }),
  );
domain
  .command('remove <hostname>')
  .description('remove a domain that has no live links')
  .action((hostname: string) =>
    withServices(async ({ domains }) => {
      await domains.remove(hostname);
      console.log(`removed domain ${hostname}`);
    }),
  );
domain
  .command('list')
  .description('list every domain')
  .action(() =>
    withServices(async ({ domains }) => {
      const rows = await domains.all();
      console.log(
        table(
          rows.map((d) => ({
            domain: d.hostname,
            urlPrefix: d.urlPrefix,
            visibility: d.visibility,
            owner: d.owner,
            codeLength: d.codeLength,
            home: d.homeRedirectUrl,
            notFound: d.notFoundRedirectUrl,
          })),
        ),
      );
    }),
  );

const link = program.command('link').description('administer links (LINK: code, slug, domain/key or full short URL)');
link
  .command('block <link>')
  .description('disable a link: its redirect answers 410')
  .option('--reason <text>', 'why (kept with the link, shown by `brief link show`)')
  .action((ref: string, options: { reason?: string }) =>
    withServices(async ({ links }) => {
      const view = await links.setStatus(ref, 'blocked', options.reason);
      console.log(`blocked ${view.shortened}${options.reason?.trim() ? ` (${options.reason.trim()})` : ''}`);
    }),
  );
link
  .command('unblock <link>')
  .description('enable a blocked link again')
  .action((ref: string) =>
    withServices(async ({ links }) => {
      const view = await links.setStatus(ref, 'public');
      console.log(`unblocked ${view.shortened}`);
    }),
  );
link
  .command('show <link>')
  .description('show a link as JSON, with its click count')
  .action((ref: string) =>
    withServices(async ({ links }) => {
      console.log(JSON.stringify(await links.show(ref), null, 2));
    }),
  );

const blocklist = program
  .command('blocklist')
  .description('destination hosts no link may point to (a host covers its subdomains); every instance follows within a second');
blocklist
  .command('add <host>')
  .description('block a host: shortening to it is refused, and existing links to it answer 410')
  .action((host: string) =>
    withServices(async ({ blocklist }) => {
      const { host: added, added: isNew } = await blocklist.add(host);
      console.log(isNew ? `blocked ${added} and its subdomains` : `${added} was already blocked`);
    }),
  );
blocklist
  .command('remove <host>')
  .description('take a host off the blocklist')
  .action((host: string) =>
    withServices(async ({ blocklist }) => {
      console.log(`unblocked ${await blocklist.remove(host)}`);
    }),
  );
blocklist
  .command('list')
  .description('list the blocked hosts (and how many BLOCKLIST_FILE adds)')
  .action(() =>
    withServices(async ({ blocklist }) => {
      const rows = await blocklist.list();
      console.log(table(rows.map((r) => ({ host: r.host, added: when(r.createdAt) }))));
      const listed = await blocklist.fileHosts();
      if (listed.length > 0) console.log(`and ${listed.length} hosts from BLOCKLIST_FILE`);
    }),
  );

/** A mistake in how a command was called. */
class UsageError extends Error {}

program.exitOverride();
try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed its one line (or the help / version text).
    process.exit(error.exitCode);
  }
  if (error instanceof BriefError || error instanceof ConfigError || error instanceof UsageError) {
    console.error(`brief: ${error.message}`);
    process.exit(1);
  }
  console.error(`brief: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
