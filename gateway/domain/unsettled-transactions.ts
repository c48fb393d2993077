import type { UnsettledTransaction } from '../contract/report';
import type { Static } from 'typebox';
import type { Queryable } from '../storage/queryable';
import { fromCents } from './money';

/**
 * GetUnsettledTransactions: the approved payments of the merchant's open batch, driven from that batch
 * (`batches_one_open`, then `payments_by_batch` in id order): a day's payments, however many years the
 * merchant has, never a join over every batch it ever had.
 */
export async function unsettledTransactions(
  q: Queryable,
  mid: number,
): Promise<Static<typeof UnsettledTransaction>[]> {
  const open = await q.first(
    q.qb
      .selectFrom('batches')
      .select(['id', 'batch_number'])
      .where('mid', '=', mid)
      .where('status', '=', 'open'),
  );
  if (!open) return [];
  const rows = await q.all(
    q.qb
      .selectFrom('payments')
      .select(['id', 'mid', 'cid', 'srn', 'utn', 'created_at', 'amount_cents'])
      .where('batch_id', '=', open.id)
      .where('status', '=', 'approved')
      .orderBy('id'),
  );
  return rows.map((r) => ({
    id: r.id,
    mid: r.mid,
    cid: r.cid,
    ServiceReferenceNumber: r.srn,
    UserReferenceNumber: r.utn,
    batch_number: open.batch_number,
    SettlementResult: 0,
    TimeSpan: r.created_at,
    Amount: fromCents(r.amount_cents),
  }));
}
