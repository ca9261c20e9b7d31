// `brief link …`: an administrator's hand on any account's link.
import type { Command } from 'commander';
import { withServices } from './cli-support.js';

export function linkCommands(program: Command): void {
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
    .command('delete <link>')
    .description('delete a link, whoever owns it: its short URL answers 404 (its code is never handed out again)')
    .action((ref: string) =>
      withServices(async ({ links }) => {
        const view = await links.remove(ref);
        console.log(`deleted ${view.shortened}`);
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
}
