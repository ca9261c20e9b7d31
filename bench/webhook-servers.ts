// `npm run bench`'s webhook scenarios (issue 41): a copy of the big database per server with an endpoint of the
// anonymous account (the preloaded links' and the shorten load's) subscribed to link.clicked (bots too: wrk is one) and
// link.created, pointing at a receiver on this machine that answers at once or never answers.
import fs from 'node:fs';
import { openDatabase } from '../src/storage/database.js';
import { newSecret } from '../src/webhooks/webhook-signature.js';
import { startHookReceiver } from './webhook-receiver.js';

export type HookReceiver = Awaited<ReturnType<typeof startHookReceiver>>;

/** A copy of `bigDb` at `file` with the endpoint added, and its receiver (closed by the caller). */
export async function hookedDatabase(bigDb: string, file: string, hang: boolean): Promise<HookReceiver> {
  fs.copyFileSync(bigDb, file);
  const receiver = await startHookReceiver(hang);
  const database = openDatabase({ kind: 'sqlite', path: file });
  try {
    const anonymous = await database.accounts.byName('anonymous');
    if (!anonymous) throw new Error('the preloaded database has no anonymous account');
    await database.webhooks.add({
      accountId: anonymous.id,
      url: receiver.url,
      events: ['link.created', 'link.clicked'],
      includeBots: true,
      secret: newSecret(),
    });
  } finally {
    await database.close();
  }
  return receiver;
}
