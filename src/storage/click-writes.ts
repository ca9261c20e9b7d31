import type { Kysely } from 'kysely';
import { inPowersOfTwo } from './batch-shapes.js';
import type { ClickBatch } from './stores.js';
import type { Tables } from './tables.js';

/** How long a writer's last number is kept after its last batch (a retry comes long before). */
const WRITER_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * Applies one click batch inside the caller's transaction: claims the writer's number
 * (a batch applied before changes nothing), then adds the clicks. The one definition of
 * the click write, run by the server's connection and by the SQLite background thread.
 */
export async function applyClickBatch(trx: Kysely<Tables>, { writer, seq, clicks }: ClickBatch): Promise<void> {
  if (!(await claimBatch(trx, writer, seq))) return; // applied before: the attempt that seemed to fail had committed
  // A batch's links are distinct, so its chunks never update the same row twice.
  for (const chunk of inPowersOfTwo(clicks)) {
    await trx
      .insertInto('link_clicks')
      .values(chunk.map(([link_id, n]) => ({ link_id, clicks: n })))
      .onConflict((oc) => oc.column('link_id').doUpdateSet((eb) => ({ clicks: eb('link_clicks.clicks', '+', eb.ref('excluded.clicks')) })))
      .execute();
  }
}

/**
 * Records a writer's batch number inside the caller's transaction: false when the number (or a
 * later one) was recorded before, so the batch was applied already. Writers are random per
 * process (click counters, analytics recorders), so they never share numbers.
 */
export async function claimBatch(trx: Kysely<Tables>, writer: string, seq: number): Promise<boolean> {
  const now = Date.now();
  const claimed = await trx
    .insertInto('click_writers')
    .values({ writer, seq, updated_at: now })
    .onConflict((oc) =>
      oc
        .column('writer')
        .doUpdateSet((eb) => ({ seq: eb.ref('excluded.seq'), updated_at: eb.ref('excluded.updated_at') }))
        .where('click_writers.seq', '<', (eb) => eb.ref('excluded.seq')),
    )
    .returning('writer')
    .executeTakeFirst();
  if (!claimed) return false;
  if (seq === 1)
    await trx
      .deleteFrom('click_writers')
      .where('updated_at', '<', now - WRITER_RETENTION_MS)
      .execute();
  return true;
}
