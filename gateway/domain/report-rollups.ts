import { sql } from 'kysely';
import type { Queryable } from '../storage/queryable';

/**
 * The Reporting group's running totals (migration 011), written in the unit of work that settles a batch
 * (after its `batch_totals`, domain/batch-totals.ts) and in the one that closes batches. A settled batch
 * never changes again (void-rules.ts refuses a void after it; a refund joins the open batch), so these rows
 * are as final as the settlement, and a window's sums are the difference of the running totals at its two
 * ends: two index descents, whether the window is a week or ten years.
 *
 * Order: batches are numbered in the order they settle. The windows select by settlement time, so the
 * time kept here never runs backwards (a later settlement stamped earlier by a clock set back, or by
 * another gateway process's clock, keeps its predecessor's time): a window is always one range of numbers.
 */
export const REPORT_SUMS = [
  'sale_cents',
  'return_cents',
  'sale_count',
  'return_count',
  'keyed_count',
  'n',
] as const;

export type ReportSumName = (typeof REPORT_SUMS)[number];
export type ReportSums = Record<ReportSumName, number>;

const cumulative = (s: ReportSums) =>
  ({
    cum_sale_cents: s.sale_cents,
    cum_return_cents: s.return_cents,
    cum_sale_count: s.sale_count,
    cum_return_count: s.return_count,
    cum_keyed_count: s.keyed_count,
    cum_n: s.n,
  }) as const;

const zeroSums = (): ReportSums => ({
  sale_cents: 0,
  return_cents: 0,
  sale_count: 0,
  return_count: 0,
  keyed_count: 0,
  n: 0,
});

function add(a: ReportSums, b: Partial<Record<string, unknown>>, prefix = ''): ReportSums {
  const out = { ...a };
  for (const k of REPORT_SUMS) out[k] += Number(b[`${prefix}${k}`] ?? 0);
  return out;
}

const later = (a: string, b: string | undefined) => (b !== undefined && b > a ? b : a);

/**
 * The settled batch's rollups: its number and running totals, each of its cashier-and-card-type groups'
 * running totals, and its approved payments numbered after every earlier settled batch's (GetBatchDetail's
 * order: batch by batch, then payment id). A batch with no approved payment has no sums and no number, as
 * the reports never showed it.
 */
export async function recordBatchRollup(tx: Queryable, batchId: number): Promise<void> {
  const batch = await tx.first(
    tx.qb.selectFrom('batches').select(['mid', 'settled_at']).where('id', '=', batchId),
  );
  if (!batch?.settled_at) return;
  const mid = Number(batch.mid);
  const groups = await tx.all(
    tx.qb
      .selectFrom('batch_totals')
      .selectAll()
      .where('batch_id', '=', batchId)
      .orderBy('cid')
      .orderBy('card_type'),
  );
  if (groups.length === 0) return;
  const prev = await tx.first(
    tx.qb.selectFrom('batch_rollups').selectAll().where('mid', '=', mid).orderBy('seq', 'desc').limit(1),
  );
  const seq = Number(prev?.seq ?? 0) + 1;
  const own = groups.reduce((s, g) => add(s, g), zeroSums());
  const before = prev ? add(zeroSums(), prev, 'cum_') : zeroSums();
  await tx.run(
    tx.qb.insertInto('batch_rollups').values({
      mid,
      seq,
      batch_id: batchId,
      settled_at: later(batch.settled_at, prev?.settled_at),
      ...own,
      ...cumulative(add(before, own)),
    }),
  );
  for (const g of groups) {
    const last = await tx.first(
      tx.qb
        .selectFrom('group_rollups')
        .selectAll()
        .where('mid', '=', mid)
        .where('cid', '=', g.cid)
        .where('card_type', '=', g.card_type)
        .orderBy('seq', 'desc')
        .limit(1),
    );
    const upTo = add(last ? add(zeroSums(), last, 'cum_') : zeroSums(), g);
    await tx.run(
      tx.qb
        .insertInto('group_rollups')
        .values({ mid, cid: g.cid, card_type: g.card_type, seq, ...cumulative(upTo) }),
    );
    if (!last)
      await tx.run(
        tx.qb
          .insertInto('rollup_groups')
          .values({ mid, cid: g.cid, card_type: g.card_type })
          .onConflict((oc) => oc.doNothing()),
      );
  }
  // The same payments batch_totals counted (approved, in this batch), numbered on from the last batch's.
  await tx.run(
    sql`insert into batch_detail_rows (mid, pos, payment_id)
      select ${sql.lit(mid)}, ${sql.lit(before.n)} + row_number() over (order by p.id), p.id
      from payments p where p.batch_id = ${sql.lit(batchId)} and p.status = 'approved'`.compile(tx.qb),
  );
}

/**
 * One close (DoCloseAllSettledTransaction) of the merchant's settled batches: one deposit of their net,
 * numbered after the earlier ones with the running net. Batches without sums fund nothing; a close of
 * only those is no deposit.
 */
export async function recordDeposit(
  tx: Queryable,
  mid: number,
  batchIds: readonly number[],
  closedAt: string,
): Promise<void> {
  if (batchIds.length === 0) return;
  const funded = await tx.all(
    tx.qb
      .selectFrom('batch_rollups')
      .select(['batch_id', 'sale_cents', 'return_cents'])
      .where('batch_id', 'in', [...batchIds]),
  );
  if (funded.length === 0) return;
  const net = funded.reduce((s, r) => s + Number(r.sale_cents) - Number(r.return_cents), 0);
  const prev = await tx.first(
    tx.qb.selectFrom('deposit_rollups').selectAll().where('mid', '=', mid).orderBy('seq', 'desc').limit(1),
  );
  await tx.run(
    tx.qb.insertInto('deposit_rollups').values({
      mid,
      seq: Number(prev?.seq ?? 0) + 1,
      closed_at: later(closedAt, prev?.closed_at),
      first_batch: Math.min(...funded.map((r) => Number(r.batch_id))),
      net_cents: net,
      cum_net_cents: Number(prev?.cum_net_cents ?? 0) + net,
    }),
  );
}

/**
 * The merchant's rollups written again from its settled batches' `batch_totals`, in settlement order, and
 * its deposits from its closes: for a history loaded or repaired by hand (rows written with SQL out of
 * time order); settlement and close keep them in step otherwise.
 */
export async function replayReportRollups(tx: Queryable, mid: number): Promise<void> {
  for (const table of [
    'batch_detail_rows',
    'group_rollups',
    'rollup_groups',
    'deposit_rollups',
    'batch_rollups',
  ] as const)
    await tx.run(tx.qb.deleteFrom(table).where('mid', '=', mid));
  const settled = await tx.all(
    tx.qb
      .selectFrom('batches')
      .select(['id', 'status', 'closed_at'])
      .where('mid', '=', mid)
      .where('status', 'in', ['settled', 'closed'])
      .where('settled_at', 'is not', null)
      .orderBy('settled_at')
      .orderBy('id'),
  );
  for (const b of settled) await recordBatchRollup(tx, b.id);
  const closes = new Map<string, number[]>();
  for (const b of settled)
    if (b.status === 'closed' && b.closed_at)
      closes.set(b.closed_at, [...(closes.get(b.closed_at) ?? []), b.id]);
  for (const [closedAt, ids] of [...closes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    await recordDeposit(tx, mid, ids, closedAt);
}
