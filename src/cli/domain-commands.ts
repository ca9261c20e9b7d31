// `brief domain …`: the short domains an administrator adds, verifies and removes, and their app-link files.
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { domainInPath } from '../domains/domain-fields.js';
import { WELL_KNOWN_NAMES } from '../domains/well-known-schemas.js';
import { accountHint, serviceCommand, table, UsageError, when } from './cli-support.js';

/** The domain as the messages name it: lower-case, without a scheme or a trailing slash. */
const named = (raw: string) => domainInPath(raw) ?? raw;

export function domainCommands(program: Command): void {
  const domain = program.command('domain').description('manage short domains');
  serviceCommand(
    domain,
    'add <hostname>',
    'add a private domain of an account (--account) or a public one (--public), verified; https:// unless a scheme is given',
    async ({ accounts, domains }, hostname: string, options: { account?: string; public?: boolean }) => {
      if (Boolean(options.account) === Boolean(options.public)) throw new UsageError('give exactly one of --account NAME or --public');
      const owner = options.account ? (await accounts.byName(options.account).catch(accountHint(options.account))).id : null;
      const added = await domains.add(hostname, owner);
      console.log(`added ${options.public ? 'public' : `private (${options.account})`} domain ${added.hostname} (${added.urlPrefix})`);
    },
  )
    .option('--account <name>', 'the account that owns the private domain')
    .option('--public', 'a public domain, usable by everybody');
  serviceCommand(
    domain,
    'verify <hostname>',
    'vouch for a domain an account claimed: it serves its links from now on, without its DNS record',
    async ({ domains }, hostname: string) => {
      const verified = await domains.verify(hostname);
      console.log(verified ? `verified domain ${named(hostname)}: it serves its links now` : `${named(hostname)} was verified already`);
    },
  );
  serviceCommand(
    domain,
    'remove <hostname>',
    'remove a domain that has no live links (or, with --with-links, delete its links with it)',
    async ({ domains }, hostname: string, options: { withLinks?: boolean }) => {
      const deleted = await domains.remove(hostname, options.withLinks === true);
      const links = options.withLinks ? ` and its ${deleted} live link${deleted === 1 ? '' : 's'}` : '';
      console.log(`removed domain ${named(hostname)}${links}`);
    },
  ).option('--with-links', 'delete the domain’s live links too: their short URLs answer 404 on every instance');
  serviceCommand(domain, 'list', 'list every domain', async ({ domains }) => {
    const rows = await domains.all();
    console.log(
      table(
        rows.map((d) => ({
          domain: d.hostname,
          urlPrefix: d.urlPrefix,
          visibility: d.visibility,
          owner: d.owner,
          verified: d.verified ? 'yes' : 'no',
          codeLength: d.codeLength,
          home: d.homeRedirectUrl,
          notFound: d.notFoundRedirectUrl,
        })),
      ),
    );
  });
  wellKnownCommands(domain);
}

/** A file's text from a path, or standard input for `-`. */
async function fileText(file: string): Promise<string> {
  if (file !== '-') {
    return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
  }
  if (process.stdin.isTTY) throw new UsageError('- reads the file from standard input: pipe it in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `brief domain well-known …`: the app-link files any domain serves under /.well-known/ (decision 0042). */
function wellKnownCommands(domain: Command): void {
  const names = WELL_KNOWN_NAMES.join(' or ');
  const wellKnown = domain.command('well-known').description(`manage the app-link files a domain serves under /.well-known/ (${names})`);
  serviceCommand(
    wellKnown,
    'set <hostname> <name> <file>',
    `upload a domain's ${names} from a file (- for standard input): JSON, at most 64 KB, served byte for byte`,
    async ({ wellKnown }, hostname: string, name: string, file: string) => {
      const set = await wellKnown.put(hostname, name, await fileText(file));
      console.log(`set ${set.name} of ${set.domain} (${set.bytes} bytes): served at /.well-known/${set.name} on it`);
    },
  );
  serviceCommand(
    wellKnown,
    'show <hostname> [name]',
    "print one of a domain's files as it is served, or without a name list the files it has",
    async ({ wellKnown }, hostname: string, name: string | undefined) => {
      if (name !== undefined) {
        process.stdout.write((await wellKnown.get(hostname, name)).body);
        return;
      }
      const files = await wellKnown.list(hostname);
      console.log(table(files.map((f) => ({ name: f.name, bytes: f.bytes, updated: when(f.updatedAt) }))));
    },
  );
  serviceCommand(
    wellKnown,
    'remove <hostname> <name>',
    'remove one of a domain’s files: it answers 404 from then on',
    async ({ wellKnown }, hostname: string, name: string) => {
      await wellKnown.remove(hostname, name);
      console.log(`removed ${name} of ${named(hostname)}`);
    },
  );
}
