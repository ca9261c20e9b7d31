// `brief webhook …`: an account's webhook endpoints, as the operator (every right: no role caps the CLI). The
// events are written by whatever changes a link; the running server sends them (this process never does).
import { type Command, InvalidArgumentError } from 'commander';
import type { Services } from '../services.js';
import { ROW_ID_MAX } from '../storage/stores/row-ids.js';
import { WEBHOOK_EVENTS } from '../storage/stores/webhooks.js';
import { accountHint, serviceCommand, table, when } from './cli-support.js';

function webhookId(value: string): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > ROW_ID_MAX)
    throw new InvalidArgumentError('must be a webhook id, as brief webhook list shows it');
  return Number(value);
}

/** `--event` may be given again and again; each is checked by the service before anything is made. */
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

/** The operator acting in an account's workspace. */
async function operatorIn({ accounts }: Services, name: string) {
  const account = await accounts.byName(name).catch(accountHint(name));
  return { accountId: account.id, anonymous: false };
}

export function webhookCommands(program: Command): void {
  const webhook = program.command('webhook').description("manage an account's webhooks (signed deliveries of its events)");
  serviceCommand(
    webhook,
    'add <account> <url>',
    'add a webhook; its signing secret is printed once, alone on the last line',
    async (services, name: string, url: string, options: { event: string[]; includeBots?: boolean }) => {
      const caller = await operatorIn(services, name);
      const { view, secret } = await services.webhooks.add(caller, { url, events: options.event, includeBots: options.includeBots === true });
      console.log(`added webhook ${view.id} for ${name}: ${view.url} (${view.events.join(', ')}${view.includeBots ? '; bots too' : ''})`);
      console.log('store the secret now: it cannot be shown again');
      console.log(secret);
    },
  )
    .requiredOption('--event <event>', `an event to send, repeatable: ${WEBHOOK_EVENTS.join(', ')}`, collect)
    .option('--include-bots', 'link.clicked carries bots’ visits too');
  serviceCommand(webhook, 'list <account>', "list an account's webhooks (never their secrets)", async (services, name: string) => {
    const views = await services.webhooks.list(await operatorIn(services, name));
    console.log(
      table(
        views.map((view) => ({
          id: view.id,
          url: view.url,
          events: view.events.join(','),
          bots: view.includeBots ? 'yes' : 'no',
          created: when(view.createdAt),
          disabled: when(view.disabledAt),
          reason: view.disabledReason,
        })),
      ),
    );
  });
  serviceCommand(webhook, 'remove <account> <id>', 'remove a webhook: nothing more is sent to it', async (services, name: string, id: string) => {
    await services.webhooks.remove(await operatorIn(services, name), webhookId(id));
    console.log(`removed webhook ${id}`);
  });
  serviceCommand(
    webhook,
    'enable <account> <id>',
    'send to a disabled webhook again, from its next event (what failed meanwhile stays failed)',
    async (services, name: string, id: string) => {
      const view = await services.webhooks.setEnabled(await operatorIn(services, name), webhookId(id), true);
      console.log(`enabled webhook ${id}: ${view.url}`);
    },
  );
  serviceCommand(
    webhook,
    'test <account> <id>',
    'queue a webhook.test event for a webhook; the running server sends it within a second',
    async (services, name: string, id: string) => {
      const delivery = await services.webhooks.sendTest(await operatorIn(services, name), webhookId(id));
      console.log(`queued test event ${delivery.eventId} for webhook ${id}: see brief webhook deliveries ${name} ${id}`);
    },
  );
  serviceCommand(
    webhook,
    'deliveries <account> <id>',
    "a webhook's latest deliveries: status, attempts, the last answer",
    async (services, name: string, id: string) => {
      const deliveries = await services.webhooks.deliveriesOf(await operatorIn(services, name), webhookId(id));
      console.log(
        table(
          deliveries.map((d) => ({
            event: d.eventId,
            type: d.type,
            status: d.status,
            attempts: d.attempts,
            answer: d.responseStatus,
            error: d.lastError,
            at: when(d.lastAttemptAt ?? d.createdAt),
          })),
        ),
      );
    },
  );
}
