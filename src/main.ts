#!/usr/bin/env node
// `brief`: the server and the admin CLI. Every command reads the same environment as the server.
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { backupCommands } from './cli/backup-commands.js';
import { accountHint, table, UsageError, when, withServices } from './cli/cli-support.js';
import { domainCommands } from './cli/domain-commands.js';
import { exportCommands } from './cli/export-commands.js';
import { importCommands } from './cli/import-commands.js';
import { linkCommands } from './cli/link-commands.js';
import { userCommands } from './cli/user-commands.js';
import { ConfigError, loadConfig } from './config.js';
import { BriefError } from './errors.js';
import { serve } from './serve.js';

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

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
      const { token: secret, record } = await accounts
        .createToken(name, { label: options.label, expiresInDays: options.expiresIn })
        .catch(accountHint(name));
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
      const rows = await accounts.listTokens(name).catch(accountHint(name));
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

domainCommands(program);
linkCommands(program);
userCommands(program);
backupCommands(program);
exportCommands(program);
importCommands(program);

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
