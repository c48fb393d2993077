import type { CreateTableBuilder } from 'kysely';
import type { Migration, MigrationContext } from '../migrate';

const SUMS = ['sale_cents', 'return_cents', 'sale_count', 'return_count', 'keyed_count', 'n'] as const;

/**
 * Reporting over the whole history at the cost of a week (issue 22): a settled batch never changes again,
 * so the unit of work that settles it also writes running totals, and any window's sums become the
 * difference of two rows found by an index descent, whatever the number of batches before it.
 *
 * - `batch_rollups`: each settled batch (with an approved payment) numbered 1, 2, ... per merchant in
 *   settlement order (`seq`), its sums and the running sums up to it; by (merchant, settlement time) for
 *   the windows.
 * - `group_rollups` and `rollup_groups`: the running sums of each cashier and card type, at each batch that
 *   had them, and the list of those groups (GetBatchSummaryByEntity by cashier, GetCardSummary).
 * - `batch_detail_rows`: the settled approved payments numbered in GetBatchDetail's order; a page is a
 *   range of numbers, never an OFFSET.
 * - `deposit_rollups`: each close that funded batches, numbered, with the running net (GetDepositsSummary).
 *
 * Existing databases are backfilled here, once, from `batch_totals` (migration 010) and the settled
 * batches' approved payments, in the order the Reporting group reads them.
 */
export const migration011: Migration = {
  version: 11,
  name: 'report rollups: running totals per settled batch, cashier and card type, deposit; detail order',
  async up(ctx) {
    const s = ctx.schema;
    let batch: CreateTableBuilder<'batch_rollups', string> = s
      .createTable('batch_rollups')
      .addColumn('mid', ctx.integer, (c) => c.notNull())
      .addColumn('seq', ctx.integer, (c) => c.notNull())
      .addColumn('batch_id', ctx.integer, (c) => c.notNull().unique().references('batches.id'))
      .addColumn('settled_at', 'text', (c) => c.notNull());
    for (const p of ['', 'cum_'])
      for (const col of SUMS) batch = batch.addColumn(`${p}${col}`, ctx.integer, (c) => c.notNull());
    await ctx.exec(batch.addPrimaryKeyConstraint('batch_rollups_pk', ['mid', 'seq']));
    await ctx.exec(
      s.createIndex('batch_rollups_by_settled').on('batch_rollups').columns(['mid', 'settled_at', 'seq']),
    );

    let group: CreateTableBuilder<'group_rollups', string> = s
      .createTable('group_rollups')
      .addColumn('mid', ctx.integer, (c) => c.notNull())
      .addColumn('cid', ctx.integer, (c) => c.notNull())
      .addColumn('card_type', 'text', (c) => c.notNull())
      .addColumn('seq', ctx.integer, (c) => c.notNull());
    for (const col of SUMS) group = group.addColumn(`cum_${col}`, ctx.integer, (c) => c.notNull());
    await ctx.exec(group.addPrimaryKeyConstraint('group_rollups_pk', ['mid', 'cid', 'card_type', 'seq']));

    await ctx.exec(
      s
        .createTable('rollup_groups')
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('cid', ctx.integer, (c) => c.notNull())
        .addColumn('card_type', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('rollup_groups_pk', ['mid', 'cid', 'card_type']),
    );
    await ctx.exec(
      s
        .createTable('batch_detail_rows')
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('pos', ctx.integer, (c) => c.notNull())
        .addColumn('payment_id', ctx.integer, (c) => c.notNull().references('payments.id'))
        .addPrimaryKeyConstraint('batch_detail_rows_pk', ['mid', 'pos']),
    );
    await ctx.exec(
      s
        .createTable('deposit_rollups')
        .addColumn('mid', ctx.integer, (c) => c.notNull())
        .addColumn('seq', ctx.integer, (c) => c.notNull())
        .addColumn('closed_at', 'text', (c) => c.notNull())
        .addColumn('first_batch', ctx.integer, (c) => c.notNull())
        .addColumn('net_cents', ctx.integer, (c) => c.notNull())
        .addColumn('cum_net_cents', ctx.integer, (c) => c.notNull())
        .addPrimaryKeyConstraint('deposit_rollups_pk', ['mid', 'seq']),
    );
    await ctx.exec(
      s.createIndex('deposit_rollups_by_closed').on('deposit_rollups').columns(['mid', 'closed_at', 'seq']),
    );
    await backfill(ctx);
  },
};

/** The rollups of the batches settled before this migration, as domain/report-rollups.ts writes them. */
async function backfill(ctx: MigrationContext): Promise<void> {
  const list = (p: string) => SUMS.map((c) => `${p}${c}`).join(', ');
  const running = (order: string, partition: string) =>
    SUMS.map(
      (c) => `sum(${c}) over (partition by ${partition} order by ${order} rows unbounded preceding)`,
    ).join(', ');
  // Batches in settlement order; only those with sums (an approved payment), as the reports joined them.
  await ctx.exec(`INSERT INTO batch_rollups (mid, seq, batch_id, settled_at, ${list('')}, ${list('cum_')})
    SELECT mid, row_number() over (partition by mid order by settled_at, batch_id), batch_id, settled_at,
      ${list('')}, ${running('settled_at, batch_id', 'mid')}
    FROM (SELECT b.mid, b.id AS batch_id, b.settled_at,
        ${SUMS.map((c) => `sum(t.${c}) AS ${c}`).join(', ')}
      FROM batches b JOIN batch_totals t ON t.batch_id = b.id
      WHERE b.status IN ('settled', 'closed') AND b.settled_at IS NOT NULL
      GROUP BY b.mid, b.id, b.settled_at) per_batch`);
  await ctx.exec(`INSERT INTO group_rollups (mid, cid, card_type, seq, ${list('cum_')})
    SELECT mid, cid, card_type, seq, ${running('seq', 'mid, cid, card_type')}
    FROM (SELECT r.mid, t.cid, t.card_type, r.seq, ${SUMS.map((c) => `t.${c}`).join(', ')}
      FROM batch_totals t JOIN batch_rollups r ON r.batch_id = t.batch_id) per_group`);
  await ctx.exec(`INSERT INTO rollup_groups (mid, cid, card_type)
    SELECT DISTINCT mid, cid, card_type FROM group_rollups`);
  await ctx.exec(`INSERT INTO batch_detail_rows (mid, pos, payment_id)
    SELECT r.mid, row_number() over (partition by r.mid order by r.seq, p.id), p.id
    FROM batch_rollups r JOIN payments p ON p.batch_id = r.batch_id
    WHERE p.status = 'approved'`);
  await ctx.exec(`INSERT INTO deposit_rollups (mid, seq, closed_at, first_batch, net_cents, cum_net_cents)
    SELECT mid, row_number() over (partition by mid order by closed_at), closed_at, first_batch, net,
      sum(net) over (partition by mid order by closed_at rows unbounded preceding)
    FROM (SELECT b.mid, b.closed_at, min(b.id) AS first_batch, sum(r.sale_cents - r.return_cents) AS net
      FROM batches b JOIN batch_rollups r ON r.batch_id = b.id
      WHERE b.status = 'closed' AND b.closed_at IS NOT NULL
      GROUP BY b.mid, b.closed_at) per_close`);
}
