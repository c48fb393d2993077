import type { Queryable } from '../storage/queryable';
import { prepare } from '../storage/prepared';

const selectOpenBatch = prepare<{ mid: number }, { id: number }>((qb, p) =>
  qb.selectFrom('batches').select('id').where('mid', '=', p('mid')).where('status', '=', 'open'),
);

/** The merchant's open batch, opened on first use. At most one is open (a partial unique index says so). */
export async function openBatchId(tx: Queryable, mid: number, now: string): Promise<number> {
  await tx.lock(`batch:${mid}`);
  const open = await tx.first(selectOpenBatch({ mid }));
  if (open) return open.id;
  const count = await tx.first(
    tx.qb
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mid', '=', mid),
  );
  const batchNumber = String(Number(count?.n ?? 0) + 1).padStart(6, '0');
  const inserted = await tx.first(
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
      .returning('id'),
  );
  if (!inserted) throw new Error('batch insert returned no id');
  return inserted.id;
}
