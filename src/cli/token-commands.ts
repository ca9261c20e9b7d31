// `brief token …`: API tokens of an account, with what each may do (its scopes).
import { type Command, InvalidArgumentError } from 'commander';
import { SCOPES } from '../accounts/scopes.js';
import { accountHint, serviceCommand, table, UsageError, when } from './cli-support.js';

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

/** `--scope` may be given again and again; each is checked (against SCOPES) before anything is made. */
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function tokenCommands(program: Command): void {
  const token = program.command('token').description('manage API tokens (only their SHA-256 hashes are stored)');
  serviceCommand(
    token,
    'create <account>',
    'create a bearer token; it is printed once, alone on the last line',
    async ({ accounts }, name: string, options: { label?: string; expiresIn?: number; scope?: string[] }) => {
      const { token: secret, record } = await accounts
        .createToken(name, { label: options.label, expiresInDays: options.expiresIn, scopes: options.scope })
        .catch(accountHint(name));
      const scopes = record.scopes === null ? 'every scope' : record.scopes.join(', ');
      console.log(`created token ${record.id} for ${name} (${scopes})${record.expiresAt ? `, expires ${when(record.expiresAt)}` : ''}`);
      console.log('store it now: it cannot be shown again');
      console.log(secret);
    },
  )
    .option('--label <text>', 'what the token is for')
    .option('--expires-in <days>', 'expire after this many days', positiveInteger)
    .option('--scope <scope>', `what it may do, repeatable: ${SCOPES.join(', ')} (default: all of them)`, collect);
  serviceCommand(token, 'list <account>', "list an account's tokens: scopes, last use and expiry", async ({ accounts }, name: string) => {
    const rows = await accounts.listTokens(name).catch(accountHint(name));
    console.log(
      table(
        rows.map((r) => ({
          id: r.id,
          label: r.name,
          scopes: r.scopes.length === SCOPES.length ? 'all' : r.scopes.join(','),
          created: when(r.createdAt),
          'last used': when(r.lastUsedAt),
          expires: when(r.expiresAt),
          revoked: when(r.revokedAt),
        })),
      ),
    );
  });
  serviceCommand(token, 'revoke <tokenId>', 'revoke a token by id', async ({ accounts }, id: string) => {
    // Not positiveInteger(): an InvalidArgumentError thrown in an action is a CommanderError
    // that commander has not printed, so the user saw nothing.
    if (!/^\d+$/.test(id) || Number(id) < 1) throw new UsageError(`TOKEN_ID must be a whole number of at least 1, got "${id}"`);
    await accounts.revokeToken(Number(id));
    console.log(`revoked token ${id}`);
  });
}
