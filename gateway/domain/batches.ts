import { sql } from 'kysely';
import type { Queryable } from '../storage/queryable';
import { prepare } from '../storage/prepared';

const selectOpenBatch = prepare<{ mid: number }, { id: number }>((qb, p) =>
  // A literal, not a parameter: only then can the planner use the partial index batches_one_open
  // (WHERE status = 'open') instead of walking every batch the merchant ever had.
  qb.selectFrom('batches').select('id').where('mid', '=', p('mid')).where('status', '=', sql.lit('open')),
);

/** PostgreSQL: the same, holding the row KEY SHARE to the commit (see openBatchId). */
const lockOpenBatch = prepare<{ mid: number }, { id: number }>((qb, p) =>
  qb
    .selectFrom('batches')
    .select('id')
    .where('mid', '=', p('mid'))
    .where('status', '=', sql.lit('open'))
    .forKeyShare(),
);

/**
 * The merchant's open batch, opened on first use. At most one is open (a partial unique index says so).
 *
 * On PostgreSQL the batch's ROW is what keeps a payment out of a batch being closed: a payment (or a
 * cancel, void-rules.ts) holds it KEY SHARE — the lock the payments.batch_id foreign key takes anyway, so
 * payments never wait for each other or add a lock of their own — and settlement takes it FOR UPDATE
 * (settlement.ts), which waits for those holders and makes new ones wait; they then find the batch
 * settled (READ COMMITTED re-reads the row they waited for) and open the next. An advisory lock per
 * merchant did this before, shared by every payment, and PostgreSQL queues every new shared request behind
 * a waiting exclusive one: while a settlement waited, every sale of the merchant waited too.
 */
export async function openBatchId(tx: Queryable, mid: number, now: string): Promise<number> {
  const find = () => tx.first(tx.dialect === 'postgres' ? lockOpenBatch({ mid }) : selectOpenBatch({ mid }));
  const open = await find();
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
  const opened = await find();
  if (!opened) throw new Error('no open batch after opening one');
  return opened.id;
}
