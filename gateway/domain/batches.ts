import { sql } from 'kysely';
import type { Queryable } from '../storage/queryable';
import { prepare } from '../storage/prepared';

const selectOpenBatch = prepare<{ mid: number }, { id: number }>((qb, p) =>
  // A literal, not a parameter: only then can the planner use the partial index batches_one_open
  // (WHERE status = 'open') instead of walking every batch the merchant ever had.
  qb.selectFrom('batches').select('id').where('mid', '=', p('mid')).where('status', '=', sql.lit('open')),
);

/**
 * The merchant's open batch, opened on first use. At most one is open (a partial unique index says so).
 * Every payment joining the batch holds the batch key shared, so they never wait for each other, while
 * closing the batch (settlement.ts) holds it exclusive: a payment never joins a batch being closed.
 */
export async function openBatchId(tx: Queryable, mid: number, now: string): Promise<number> {
  await tx.lock(`batch:${mid}`, 'shared');
  const open = await tx.first(selectOpenBatch({ mid }));
  if (open) return open.id;
  const count = await tx.first(
    tx.qb
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mid', '=', mid),
  );
  const batchNumber = String(Number(count?.n ?? 0) + 1).padStart(6, '0');
  // Two payments (two processes) may open it at once: the unique indexes keep one, and the other, which
  // waited for it, reads it back.
  await tx.run(
    tx.qb
      .insertInto('batches')
      .values({
        mid,
        batch_number: batchNumber,
        status: 'open',
        opened_at: now,
        settled_at: null,
        closed_at: null,
        settlement_id: null,
      })
      .onConflict((oc) => oc.doNothing()),
  );
  const opened = await tx.first(selectOpenBatch({ mid }));
  if (!opened) throw new Error('no open batch after opening one');
  return opened.id;
}
