import type { Migration } from '../migrate';

/**
 * Years of data (a store keeps 1,000 payments a day for years): every request path reads a bounded range
 * of an index, never the merchant's whole history.
 *
 * - `batch_totals`: a settled batch's sums by cashier and card type, written once when the batch settles
 *   (a settled batch never reopens: a void after it is refused and a refund joins the open batch), so the
 *   Reporting group sums a few rows a day instead of every payment since the store opened. Existing
 *   settled and closed batches are summed here, once.
 * - batches by settlement and close time: the Reporting group's date windows.
 * - payments by (batch, status, id): the open batch's approved payments (GetUnsettledTransactions) and a
 *   settled batch's page of GetBatchDetail, in order, without a sort. It replaces `payments_by_batch`
 *   (batch_id alone), whose every use it serves.
 * - payments by (merchant, id) and by (merchant, user, cashier, id): the Report group's streamed "every
 *   transaction" reports, read in id order a slice at a time.
 * - transaction numbers used, by (merchant, time, number): GetTransactionNumbers streamed in its order.
 * - payment links and recurring billings by (merchant, id): their lists streamed in id order (the
 *   billings' index was the merchant alone, which PostgreSQL does not keep in id order).
 */
export const migration010: Migration = {
  version: 10,
  name: 'years of data: batch totals, indexes for the Report and Reporting groups',
  async up(ctx) {
    const s = ctx.schema;
    await ctx.exec(
      s
        .createTable('batch_totals')
        .addColumn('batch_id', ctx.integer, (c) => c.notNull().references('batches.id'))
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('card_type', 'text', (c) => c.notNull())
        .addColumn('sale_cents', ctx.integer, (c) => c.notNull())
        .addColumn('return_cents', ctx.integer, (c) => c.notNull())
        .addColumn('sale_count', ctx.integer, (c) => c.notNull())
        .addColumn('return_count', ctx.integer, (c) => c.notNull())
        .addColumn('keyed_count', ctx.integer, (c) => c.notNull())
        .addColumn('n', ctx.integer, (c) => c.notNull())
        .addPrimaryKeyConstraint('batch_totals_pk', ['batch_id', 'cid', 'card_type']),
    );
    // The sums as the Reporting group counted them when this migration shipped (card-paid.ts: what the card
    // was charged; a refund counts its amount); later batches are summed by domain/batch-totals.ts.
    await ctx.exec(`INSERT INTO batch_totals
      (batch_id, mid, cid, card_type, sale_cents, return_cents, sale_count, return_count, keyed_count, n)
      SELECT p.batch_id, p.mid, p.cid, p.card_type,
        sum(case when p.operation = 'refund' then 0 else (p.amount_cents + p.tax_cents + p.tip_cents + p.surcharge_cents + p.card_difference_cents + p.cashback_cents) end),
        sum(case when p.operation = 'refund' then p.amount_cents else 0 end),
        sum(case when p.operation = 'refund' then 0 else 1 end),
        sum(case when p.operation = 'refund' then 1 else 0 end),
        sum(case when p.entry_mode in ('KeyEntered', 'ChipFallbackManual') then 1 else 0 end),
        count(*)
      FROM payments p JOIN batches b ON b.id = p.batch_id
      WHERE p.status = 'approved' AND b.status IN ('settled', 'closed')
      GROUP BY p.batch_id, p.mid, p.cid, p.card_type`);
    // The merchant's sums, whichever side of a join the planner starts from.
    await ctx.exec(s.createIndex('batch_totals_by_mid').on('batch_totals').columns(['mid', 'batch_id']));
    await ctx.exec(s.createIndex('batches_by_settled').on('batches').columns(['mid', 'settled_at']));
    await ctx.exec(s.createIndex('batches_by_closed').on('batches').columns(['mid', 'closed_at']));
    await ctx.exec(s.dropIndex('payments_by_batch'));
    await ctx.exec(s.createIndex('payments_by_batch').on('payments').columns(['batch_id', 'status', 'id']));
    await ctx.exec(s.createIndex('payments_by_mid_id').on('payments').columns(['mid', 'id']));
    await ctx.exec(
      s.createIndex('payments_by_user_cashier').on('payments').columns(['mid', 'user_id', 'cid', 'id']),
    );
    await ctx.exec(s.createIndex('payment_links_by_mid_id').on('payment_links').columns(['mid', 'id']));
    await ctx.exec(s.dropIndex('recurring_billings_by_mid'));
    await ctx.exec(
      s.createIndex('recurring_billings_by_mid').on('recurring_billings').columns(['mid', 'id']),
    );
    await ctx.exec(
      "CREATE INDEX transaction_numbers_used ON transaction_numbers (mid, created_at, utn) WHERE state = 'used'",
    );
  },
};
