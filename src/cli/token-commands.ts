// `brief token …`: API tokens of an account, with what each may do (its scopes) and the role it acts with.
// A token made here is the operator's: it has no maker whose role caps it, so it may act as owner.
import { type Command, InvalidArgumentError } from 'commander';
import { ROLES } from '../accounts/roles.js';
import { SCOPES } from '../accounts/scopes.js';
import type { TokenView } from '../tokens/token-service.js';
import { accountHint, serviceCommand, table, UsageError, when } from './cli-support.js';

function positiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError('must be a whole number of at least 1');
  return Number(value);
}

/** `--scope` may be given again and again; each is checked (against SCOPES) before anything is made. */
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** Who made a token, as the list says it: the operator (the CLI, or before makers were recorded), an email, or a person since removed. */
const madeBy = (maker: TokenView['createdBy']) => (maker === null ? 'operator' : (maker.email ?? `removed user ${maker.id}`));

export function tokenCommands(program: Command): void {
  const token = program.command('token').description('manage API tokens (only their SHA-256 hashes are stored)');
  serviceCommand(
    token,
    'create <account>',
    'create a bearer token; it is printed once, alone on the last line',
    async ({ tokens }, name: string, options: { label?: string; expiresIn?: number; scope?: string[]; role: string }) => {
      const { token: secret, record } = await tokens
        .createToken(name, { label: options.label, expiresInDays: options.expiresIn, scopes: options.scope, role: options.role })
        .catch(accountHint(name));
      const scopes = record.scopes === null ? 'every scope' : record.scopes.join(', ');
      const expires = record.expiresAt ? `, expires ${when(record.expiresAt)}` : '';
      console.log(`created token ${record.id} for ${name} (${record.role}; ${scopes})${expires}`);
      console.log('store it now: it cannot be shown again');
      console.log(secret);
    },
  )
    .option('--label <text>', 'what the token is for')
    .option('--expires-in <days>', 'expire after this many days', positiveInteger)
    .option('--scope <scope>', `what it may do, repeatable: ${SCOPES.join(', ')} (default: all its role may hold)`, collect)
    .option('--role <role>', `the role it acts with: ${ROLES.join(', ')}`, 'owner');
  serviceCommand(token, 'list <account>', "list an account's tokens: role, maker, scopes, last use and expiry", async ({ tokens }, name: string) => {
    const rows = await tokens.listTokens(name).catch(accountHint(name));
    console.log(
      table(
        rows.map((r) => ({
          id: r.id,
          label: r.name,
          role: r.role,
          'made by': madeBy(r.createdBy),
          scopes: r.scopes.length === SCOPES.length ? 'all' : r.scopes.join(','),
          created: when(r.createdAt),
          'last used': when(r.lastUsedAt),
          expires: when(r.expiresAt),
          revoked: when(r.revokedAt),
        })),
      ),
    );
  });
  serviceCommand(token, 'revoke <tokenId>', 'revoke a token by id', async ({ tokens }, id: string) => {
    // Not positiveInteger(): an InvalidArgumentError thrown in an action is a CommanderError
    // that commander has not printed, so the user saw nothing.
    if (!/^\d+$/.test(id) || Number(id) < 1) throw new UsageError(`TOKEN_ID must be a whole number of at least 1, got "${id}"`);
    await tokens.revokeToken(Number(id));
    console.log(`revoked token ${id}`);
  });
}
