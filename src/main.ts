#!/usr/bin/env node
// `brief`: the server and the admin CLI. Every command reads the same environment as the server.
import { Command, CommanderError } from 'commander';
import { backupCommands } from './cli/backup-commands.js';
import { serviceCommand, table, UsageError, when } from './cli/cli-support.js';
import { domainCommands } from './cli/domain-commands.js';
import { exportCommands } from './cli/export-commands.js';
import { importCommands } from './cli/import-commands.js';
import { linkCommands } from './cli/link-commands.js';
import { tokenCommands } from './cli/token-commands.js';
import { userCommands } from './cli/user-commands.js';
import { webhookCommands } from './cli/webhook-commands.js';
import { ConfigError, loadConfig } from './config.js';
import { BriefError } from './errors.js';

const program = new Command('brief').description('Brief: a self-hosted URL shortener').showHelpAfterError(false);

program
  .command('serve')
  .description('run the HTTP server (migrates the database first)')
  // Imported here, not above: the HTTP server is a chunk of the build only `serve` loads (scripts/build-server.mjs).
  .action(async () => (await import('./serve.js')).serve(loadConfig()));

serviceCommand(program, 'migrate', 'bring the database schema up to date', async () => {
  console.log('database is up to date');
});

const account = program.command('account').description('manage accounts');
serviceCommand(account, 'create <name>', 'create an account', async ({ accounts }, name: string) => {
  const row = await accounts.create(name);
  console.log(`created account ${row.name} (id ${row.id})`);
});
serviceCommand(account, 'list', 'list accounts', async ({ accounts }) => {
  const rows = await accounts.list();
  console.log(table(rows.map((r) => ({ id: r.id, name: r.name, created: when(r.createdAt) }))));
});

tokenCommands(program);
domainCommands(program);
linkCommands(program);
userCommands(program);
backupCommands(program);
exportCommands(program);
importCommands(program);
webhookCommands(program);

const blocklist = program
  .command('blocklist')
  .description('destination hosts no link may point to (a host covers its subdomains); every instance follows within a second');
serviceCommand(
  blocklist,
  'add <host>',
  'block a host: shortening to it is refused, and existing links to it answer 410',
  async ({ blocklist }, host: string) => {
    const { host: added, added: isNew } = await blocklist.add(host);
    console.log(isNew ? `blocked ${added} and its subdomains` : `${added} was already blocked`);
  },
);
serviceCommand(blocklist, 'remove <host>', 'take a host off the blocklist', async ({ blocklist }, host: string) => {
  console.log(`unblocked ${await blocklist.remove(host)}`);
});
serviceCommand(blocklist, 'list', 'list the blocked hosts (and how many BLOCKLIST_FILE adds)', async ({ blocklist }) => {
  const rows = await blocklist.list();
  console.log(table(rows.map((r) => ({ host: r.host, added: when(r.createdAt) }))));
  const listed = await blocklist.fileHosts();
  if (listed.length > 0) console.log(`and ${listed.length} hosts from BLOCKLIST_FILE`);
});

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
