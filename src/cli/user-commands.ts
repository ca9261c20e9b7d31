// `brief user …`: the people who sign in to the web app (decision 0028).
import type { Command } from 'commander';
import { parseRole, ROLES } from '../accounts/roles.js';
import { serviceCommand, table, UsageError, when } from './cli-support.js';

/** Everything on standard input, without the one line end a shell or `echo` adds. */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--password-stdin reads the password from standard input: pipe it in');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

export function userCommands(program: Command): void {
  const user = program.command('user').description('manage the people who sign in (email and password)');
  serviceCommand(
    user,
    'create <email>',
    'add a person to a workspace (made when missing; named after the email when not given); without --password-stdin, ' +
      'prints a one-time link (valid 7 days) that lets the person set a password; an email that exists already joins ' +
      'the workspace with the role and keeps its password',
    async ({ people }, email: string, options: { role: string; workspace?: string; passwordStdin?: boolean }) => {
      // Everything checked before anything is made: the role here, the email and password in createUser.
      const role = parseRole(options.role);
      const password = options.passwordStdin ? await readStdin() : undefined;
      const { invitation, existing } = await people.createUser({ email, role, workspace: options.workspace, password });
      if (existing) {
        const kept = password === undefined ? '' : ' (their password is unchanged)';
        console.log(`added existing user ${email.trim()} to ${options.workspace ?? email.trim().toLowerCase()} as ${role}${kept}`);
        return;
      }
      if (!invitation) {
        console.log(`created user ${email.trim()} (${role} of ${options.workspace ?? email.trim().toLowerCase()}): they can sign in now`);
        return;
      }
      console.log(`invited ${invitation.email} (${invitation.role} of ${invitation.workspace}), until ${when(invitation.expiresAt)}`);
      console.log('hand this one-time link over (it is shown once):');
      console.log(invitation.link);
    },
  )
    .option('--role <role>', `${ROLES.join(', ')}`, 'owner')
    .option('--workspace <name>', 'the workspace (an account); made when missing')
    .option('--password-stdin', 'read the password from standard input (at least 10 characters)');
  serviceCommand(user, 'list', 'list the people, their workspaces and roles', async ({ people }) => {
    const rows = await people.list();
    console.log(
      table(
        rows.map((r) => ({
          email: r.email,
          workspaces: r.memberships.map((m) => `${m.accountName}:${m.role}`).join(' '),
          password: r.hasPassword ? 'set' : 'not yet',
          created: when(r.createdAt),
        })),
      ),
    );
  });
  serviceCommand(
    user,
    'password <email>',
    'set a person’s password (from standard input, at least 10 characters); every session of theirs ends, the old ' +
      'password stops working at once',
    async ({ passwordChanges }, email: string, options: { passwordStdin?: boolean }) => {
      if (!options.passwordStdin) throw new UsageError('brief user password reads the new password from standard input: pass --password-stdin');
      await passwordChanges.set(email, await readStdin());
      console.log(`set the password of ${email.trim()}: their sessions have ended`);
    },
  ).option('--password-stdin', 'read the new password from standard input (at least 10 characters)');
  serviceCommand(
    user,
    'reset <email>',
    'print a one-time link, valid 1 hour, whose page sets a new password (Brief sends no mail: hand it over); ' +
      'using it ends every session of the person; a newer link replaces this one',
    async ({ passwordChanges }, email: string) => {
      const reset = await passwordChanges.resetLink(email);
      console.log(`password reset for ${reset.email}, until ${when(reset.expiresAt)}`);
      console.log('hand this one-time link over (it is shown once):');
      console.log(reset.link);
    },
  );
  serviceCommand(
    user,
    'remove <email>',
    'remove a person: their memberships end, their sessions are signed out, and the tokens and pending invitations ' +
      'they made are revoked, at once',
    async ({ people }, email: string) => {
      await people.remove(email);
      console.log(`removed user ${email.trim()}: their sessions ended, their tokens and pending invitations revoked`);
    },
  );
}
