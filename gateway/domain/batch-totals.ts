import { sql } from 'kysely';
import type { Queryable } from '../storage/queryable';
import { chargedCentsSql } from './rules/card-paid';

/**
 * A settled batch's sums by cashier and card type (`batch_totals`), written once, in the unit of work
 * that settles it. A settled batch never changes again (void-rules.ts refuses a void after it; a refund
 * joins the open batch), so its sums are as final as the settlement record, and the Reporting group adds
 * up these few rows a batch instead of reading every payment of years of history.
 *
 * The counting rule is the Reporting group's: approved payments only; a sale counts what the card was
 * charged (rules/card-paid.ts), a refund its amount; keyed = the card was not at the counter.
 */
export async function recordBatchTotals(tx: Queryable, batchId: number): Promise<void> {
  const p = 'p';
  await tx.run(
    sql`insert into batch_totals
      (batch_id, mid, cid, card_type, sale_cents, return_cents, sale_count, return_count, keyed_count, n)
      select p.batch_id, p.mid, p.cid, p.card_type,
        sum(case when p.operation = 'refund' then 0 else ${chargedCentsSql(p)} end),
        sum(case when p.operation = 'refund' then p.amount_cents else 0 end),
        sum(case when p.operation = 'refund' then 0 else 1 end),
        sum(case when p.operation = 'refund' then 1 else 0 end),
        sum(case when p.entry_mode in ('KeyEntered', 'ChipFallbackManual') then 1 else 0 end),
        count(*)
      from payments p
      where p.batch_id = ${batchId} and p.status = 'approved'
      group by p.batch_id, p.mid, p.cid, p.card_type`.compile(tx.qb),
  );
}
