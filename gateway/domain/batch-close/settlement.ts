/**
 * Batch close, part 2 of 2: WHAT a close does. docs/decisions.md#batches: approved payments join their
 * merchant's open batch, DoSettlement or the automatic close (schedule.ts beside this file) closes it, and
 * the Reporting group reads the real batches; interface, Settlement report (AmountSettled, Batches,
 * CompletedOn). A batch's sales count what the card was charged (rules/card-paid.ts); a settled batch never
 * reopens, so a void after it is refused (void-rules.ts) and its payments are refunded instead.
 */
import type { Queryable, Storage } from '../../storage/queryable';
import type { BatchesTable } from '../../storage/schema';
import { openBatchId } from '../batches';
import { recordBatchTotals } from '../batch-totals';
import { recordBatchRollup, recordDeposit } from '../report-rollups';
import type { Cents } from '../money';
import { chargedCentsSql } from '../rules/card-paid';

export type BatchTotals = {
  batchId: number;
  batchNumber: string;
  transactionCount: number;
  saleCents: Cents;
  returnCents: Cents;
  netCents: Cents;
  openedAt: string;
  settledAt: string | null;
  closedAt: string | null;
};

/**
 * A batch's money: approved captures (cash back included, the card paid it) less approved refunds.
 * Preauthorizations never join a batch; their completions do. Voided and reversed payments count nothing.
 */
export async function batchTotals(
  q: Queryable,
  batch: Pick<BatchesTable, 'batch_number' | 'opened_at' | 'settled_at' | 'closed_at'> & { id: number },
): Promise<BatchTotals> {
  const rows = await q.all(
    q.qb
      .selectFrom('payments')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn
          .sum<number>(eb.case().when('operation', '=', 'refund').then(0).else(chargedCentsSql()).end())
          .as('sales'),
        eb.fn
          .sum<number>(eb.case().when('operation', '=', 'refund').then(eb.ref('amount_cents')).else(0).end())
          .as('returns'),
      ])
      .where('batch_id', '=', batch.id)
      .where('status', '=', 'approved'),
  );
  const r = rows[0];
  const sale = Number(r?.sales ?? 0);
  const ret = Number(r?.returns ?? 0);
  return {
    batchId: batch.id,
    batchNumber: batch.batch_number,
    transactionCount: Number(r?.n ?? 0),
    saleCents: sale,
    returnCents: ret,
    netCents: sale - ret,
    openedAt: batch.opened_at,
    settledAt: batch.settled_at,
    closedAt: batch.closed_at,
  };
}

export type SettlementResult = {
  settlementId: number | null;
  amountCents: Cents;
  batches: BatchTotals[];
  completedOn: string | null;
};

// rule: batch-settlement
/**
 * Settles the merchant's open batch: its totals become a settlement record and the batch stops taking
 * payments (the next approval opens a new one). An empty or missing open batch settles nothing.
 */
export async function settleOpenBatch(storage: Storage, mid: number, now: Date): Promise<SettlementResult> {
  return storage.write(async (tx) => {
    const iso = now.toISOString();
    // FOR UPDATE (PostgreSQL): waits for every payment joining the batch and every cancel deciding on it
    // (they hold its row KEY SHARE, batches.ts) and keeps new ones out until this commits.
    const open = tx.qb.selectFrom('batches').selectAll().where('mid', '=', mid).where('status', '=', 'open');
    const batch = await tx.first(tx.dialect === 'postgres' ? open.forUpdate() : open);
    if (!batch) return { settlementId: null, amountCents: 0, batches: [], completedOn: null };
    // A refund whose cancel is at the processor right now (void-rules.ts) is neither settled nor dropped:
    // it waits for the next batch, where the cancel's outcome is booked.
    const cancelling = await tx.all(
      tx.qb
        .selectFrom('payments')
        .select('id')
        .where('batch_id', '=', batch.id)
        .where('status', '=', 'approved')
        .where('reversal_requested', '=', 1),
    );
    const moved = cancelling.map((p) => p.id);
    if (moved.length > 0)
      await tx.run(tx.qb.updateTable('payments').set({ batch_id: null }).where('id', 'in', moved));
    const totals = await batchTotals(tx, batch);
    if (totals.transactionCount === 0) {
      if (moved.length > 0)
        await tx.run(tx.qb.updateTable('payments').set({ batch_id: batch.id }).where('id', 'in', moved));
      // Nothing approved to settle: the batch stays open. It is dropped only when no payment names it (a
      // voided or reversed payment keeps its batch, and the foreign key keeps the batch).
      const named = await tx.first(
        tx.qb.selectFrom('payments').select('id').where('batch_id', '=', batch.id).limit(1),
      );
      if (!named) await tx.run(tx.qb.deleteFrom('batches').where('id', '=', batch.id));
      return { settlementId: null, amountCents: 0, batches: [], completedOn: null };
    }
    const settlement = await tx.first(
      tx.qb
        .insertInto('settlements')
        .values({
          mid,
          amount_settled_cents: totals.netCents,
          batch_numbers: JSON.stringify([batch.batch_number]),
          completed_on: iso,
        })
        .returning('id'),
    );
    if (!settlement) throw new Error('settlement insert returned no id');
    await tx.run(
      tx.qb
        .updateTable('batches')
        .set({ status: 'settled', settled_at: iso, settlement_id: settlement.id })
        .where('id', '=', batch.id),
    );
    // Before the refunds being cancelled rejoin the next batch: they are not this batch's.
    await recordBatchTotals(tx, batch.id);
    await recordBatchRollup(tx, batch.id);
    if (moved.length > 0) {
      const next = await openBatchId(tx, mid, iso);
      await tx.run(tx.qb.updateTable('payments').set({ batch_id: next }).where('id', 'in', moved));
    }
    return {
      settlementId: settlement.id,
      amountCents: totals.netCents,
      batches: [{ ...totals, settledAt: iso }],
      completedOn: iso,
    };
  });
}

/** DoCloseAllSettledTransaction: every settled batch is funded and closed (a deposit for the Reporting group). */
export async function closeSettledBatches(
  storage: Storage,
  mid: number,
  now: Date,
): Promise<SettlementResult> {
  return storage.write(async (tx) => {
    const iso = now.toISOString();
    // Two closes at once (two gateway processes) would both fund the same settled batches: the rows are
    // held FOR UPDATE, and the second close, once the first commits, finds them closed.
    const settled = tx.qb
      .selectFrom('batches')
      .selectAll()
      .where('mid', '=', mid)
      .where('status', '=', 'settled')
      .orderBy('id');
    const batches = await tx.all(tx.dialect === 'postgres' ? settled.forUpdate() : settled);
    const totals: BatchTotals[] = [];
    for (const b of batches) {
      totals.push({ ...(await batchTotals(tx, b)), closedAt: iso });
      await tx.run(
        tx.qb.updateTable('batches').set({ status: 'closed', closed_at: iso }).where('id', '=', b.id),
      );
    }
    await recordDeposit(
      tx,
      mid,
      batches.map((b) => b.id),
      iso,
    );
    return {
      settlementId: null,
      amountCents: totals.reduce((s, t) => s + t.netCents, 0),
      batches: totals,
      completedOn: totals.length > 0 ? iso : null,
    };
  });
}
