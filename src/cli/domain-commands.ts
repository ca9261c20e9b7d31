// `brief domain …`: the short domains an administrator adds, verifies and removes.
import type { Command } from 'commander';
import { domainInPath } from '../domains/domain-fields.js';
import { accountHint, serviceCommand, table, UsageError } from './cli-support.js';

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
}
