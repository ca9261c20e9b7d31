// `brief link …`: an administrator's hand on any account's link.
import type { Command } from 'commander';
import { serviceCommand } from './cli-support.js';

export function linkCommands(program: Command): void {
  const link = program.command('link').description('administer links (LINK: code, slug, domain/key or full short URL)');
  serviceCommand(link, 'block <link>', 'disable a link: its redirect answers 410', async ({ links }, ref: string, options: { reason?: string }) => {
    const view = await links.setStatus(ref, 'blocked', options.reason);
    console.log(`blocked ${view.shortened}${options.reason?.trim() ? ` (${options.reason.trim()})` : ''}`);
  }).option('--reason <text>', 'why (kept with the link, shown by `brief link show`)');
  serviceCommand(link, 'unblock <link>', 'enable a blocked link again', async ({ links }, ref: string) => {
    const view = await links.setStatus(ref, 'public');
    console.log(`unblocked ${view.shortened}`);
  });
  serviceCommand(
    link,
    'delete <link>',
    'delete a link, whoever owns it: its short URL answers 404 (its code is never handed out again)',
    async ({ links }, ref: string) => {
      const view = await links.remove(ref);
      console.log(`deleted ${view.shortened}`);
    },
  );
  serviceCommand(link, 'show <link>', 'show a link as JSON, with its click count', async ({ links }, ref: string) => {
    console.log(JSON.stringify(await links.show(ref), null, 2));
  });
}
