import { sql, type RawBuilder } from 'kysely';
import { recordBatchTotals } from '../../gateway/domain/batch-totals';
import { replayReportRollups } from '../../gateway/domain/report-rollups';
import type { Queryable, Storage } from '../../gateway/storage/queryable';

/**
 * Years of a merchant's payments, made the way a store makes them: a real sample through the API first
 * (the caller's), then rows synthesised with SQL from that sample, day by day, each day's batch settled at
 * its end and closed (funded) a minute later, its sums recorded by the same code a settlement runs
 * (domain/batch-totals.ts), one settlement record each, a transaction number per payment, and payment
 * links and recurring billings in proportion. Every row respects the schema: foreign keys, the refund
 * ceiling, unique numbers, one open batch per merchant.
 *
 * Of each 20 payments: 18 sales (one of them refunded 1.00), the refund, and one decline in 50 (no
 * batch). One payment in 4 is another cashier's.
 */
export type HistoryPlan = {
  mid: number;
  userId: number;
  cid: number;
  /** The other cashier's number. */
  otherCid: number;
  /** Closed days of history, each with its settled and closed batch. */
  days: number;
  perDay: number;
  /** UTC midnight that ends the history (today): the days are the ones before it. */
  until: Date;
  /** Rows added to the merchant's open batch (today's), so GetUnsettledTransactions has a day's worth. */
  openRows: number;
  /** Payment links per payment (1/100) and recurring billings per payment (1/200). */
  linksPer?: number;
  billingsPer?: number;
};

export type HistoryMade = {
  payments: number;
  batches: number;
  links: number;
  billings: number;
  /** The id (and `HIST-<id>` number) of the first synthesised payment: row i is id first + i. */
  firstPaymentId: number;
};

const CHUNK = 20_000;

function numbers(q: Queryable, from: number, to: number): RawBuilder<unknown> {
  return q.dialect === 'postgres'
    ? sql`generate_series(${sql.lit(from)}::bigint, ${sql.lit(to - 1)}::bigint) as seq(i)`
    : sql`(with recursive s(i) as (select ${sql.lit(from)} union all select i + 1 from s where i < ${sql.lit(to - 1)}) select i from s) as seq`;
}

/** ISO-8601 UTC text (the schema's time format) of `epoch` seconds plus an integer SQL expression. */
function isoAt(q: Queryable, epoch: number, plusSeconds: RawBuilder<unknown>): RawBuilder<string> {
  return q.dialect === 'postgres'
    ? sql<string>`to_char(to_timestamp(${sql.lit(epoch)} + ${plusSeconds}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${sql.lit(epoch)} + ${plusSeconds}, 'unixepoch')`;
}

/** `e` as text, zero-padded to `width` digits (batch numbers are six, as domain/batches.ts numbers them). */
const padded = (q: Queryable, e: RawBuilder<unknown>, width: number) =>
  q.dialect === 'postgres'
    ? sql`lpad((${e})::text, ${sql.lit(width)}, '0')`
    : sql`substr(${sql.lit('0'.repeat(width))} || (${e}), ${sql.lit(-width)})`;

async function run(storage: Storage, build: (tx: Queryable) => RawBuilder<unknown>): Promise<void> {
  await storage.write(async (tx) => {
    await tx.run(build(tx).compile(tx.qb));
  });
}

async function columnsOf(q: Queryable, table: string): Promise<string[]> {
  const rows =
    q.dialect === 'postgres'
      ? await q.all(
          sql<{
            name: string;
          }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.compile(
            q.qb,
          ),
        )
      : await q.all(sql<{ name: string }>`select name from pragma_table_info(${table})`.compile(q.qb));
  return rows.map((r) => r.name);
}

async function maxId(q: Queryable, table: 'payments' | 'batches' | 'settlements'): Promise<number> {
  const r = await q.first(q.qb.selectFrom(table).select((eb) => eb.fn.max('id').as('id')));
  return Number(r?.id ?? 0);
}

export async function synthesizeHistory(storage: Storage, plan: HistoryPlan): Promise<HistoryMade> {
  const q = storage.read;
  const templates = await q.all(
    q.qb
      .selectFrom('payments')
      .select('id')
      .where('mid', '=', plan.mid)
      .where('status', '=', 'approved')
      .where('operation', '=', 'sale')
      .orderBy('id'),
  );
  if (templates.length === 0) throw new Error('the sample has no approved sale to copy');
  const open = await q.first(
    q.qb.selectFrom('batches').select('id').where('mid', '=', plan.mid).where('status', '=', 'open'),
  );
  if (!open && plan.openRows > 0) throw new Error('the sample left no open batch to fill');
  const batchCount = await q.first(
    q.qb
      .selectFrom('batches')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('mid', '=', plan.mid),
  );
  const firstNumber = Number(batchCount?.n ?? 0) + 1;
  const paymentBase = (await maxId(q, 'payments')) + 1;
  const batchBase = (await maxId(q, 'batches')) + 1;
  const untilEpoch = Math.floor(plan.until.getTime() / 1000);
  const firstDay = untilEpoch - plan.days * 86_400;

  // The days' batches, settled at 23:59 and closed a minute later (the next day's first minute).
  if (plan.days > 0) {
    await run(
      storage,
      (
        tx,
      ) => sql`insert into batches (id, mid, batch_number, status, opened_at, settled_at, closed_at, settlement_id)
        select ${sql.lit(batchBase)} + i, ${sql.lit(plan.mid)}, ${padded(tx, sql`${sql.lit(firstNumber)} + i`, 6)}, 'closed',
          ${isoAt(tx, firstDay, sql`i * 86400`)}, ${isoAt(tx, firstDay, sql`i * 86400 + 86340`)},
          ${isoAt(tx, firstDay, sql`i * 86400 + 86400`)}, null
        from ${numbers(tx, 0, plan.days)}`,
    );
  }

  const total = plan.days * plan.perDay + plan.openRows;
  const templateIds = sql.join(templates.map((t) => sql.lit(t.id)));
  for (let from = 0; from < total; from += CHUNK) {
    const to = Math.min(total, from + CHUNK);
    await run(storage, (tx) => {
      const day = sql`(i / ${sql.lit(plan.perDay)})`;
      const kind = sql`(i % 20)`;
      const declined = sql`(i % 50 = 7)`;
      const openDay = sql`(${day} >= ${sql.lit(plan.days)})`;
      const at = isoAt(
        tx,
        firstDay,
        sql`${day} * 86400 + 3600 + (i % ${sql.lit(plan.perDay)}) * ${sql.lit(Math.floor(80_000 / plan.perDay))}`,
      );
      const amount = sql`case when ${kind} = 19 then 100 else 500 + (i * 37) % 20000 end`;
      return sql`insert into payments (id, srn, mid, cid, user_id, utn, operation, transaction_type, status,
          preauth_state, requested_cents, amount_cents, tax_cents, tip_cents, surcharge_cents,
          card_difference_cents, cashback_cents, currency, card_type, first6, last4, fingerprint, entry_mode,
          pos_code, auth_code, avs_result, cvn_result, response_code, response_msg, parent_id, refunded_cents,
          pending_refund_cents, batch_id, reversal_requested, is_test, invoice, order_ref, customer_id,
          token_id, payment_link_id, source, balance_cents, created_at, updated_at)
        select ${sql.lit(paymentBase)} + i, ${sql.lit(`H${plan.mid}-`)} || (${sql.lit(paymentBase)} + i),
          ${sql.lit(plan.mid)},
          case when i % 4 = 3 then ${sql.lit(plan.otherCid)} else ${sql.lit(plan.cid)} end,
          ${sql.lit(plan.userId)}, 'HIST-' || (${sql.lit(paymentBase)} + i),
          case when ${kind} = 19 then 'refund' else 'sale' end, t.transaction_type,
          case when ${declined} then 'declined' else 'approved' end,
          null, ${amount}, ${amount}, 0, 0, 0, 0, 0, t.currency, t.card_type, t.first6, t.last4,
          t.fingerprint, t.entry_mode, t.pos_code,
          case when ${declined} then '' else t.auth_code end, t.avs_result, t.cvn_result,
          case when ${declined} then 3 else 0 end,
          case when ${declined} then 'DECLINED' else t.response_msg end,
          case when ${kind} = 19 then ${sql.lit(paymentBase)} + i - 1 else null end,
          case when ${kind} = 18 then 100 else 0 end, 0,
          case when ${declined} then null when ${openDay} then ${sql.lit(open?.id ?? null)}
            else ${sql.lit(batchBase)} + ${day} end,
          0, 0, 'INV-' || i, null, null, null, null, null, null, ${at}, ${at}
        from ${numbers(tx, from, to)}
        join (select row_number() over (order by id) - 1 as k, p.* from payments p where p.id in (${templateIds})) t
          on t.k = i % ${sql.lit(templates.length)}`;
    });
    await run(
      storage,
      () => sql`insert into transaction_numbers (mid, utn, operation, payment_id, state, created_at)
        select mid, utn, operation, id, 'used', created_at from payments
        where id >= ${sql.lit(paymentBase + from)} and id < ${sql.lit(paymentBase + to)}`,
    );
  }

  // Each closed day's sums, as its settlement recorded them, and its settlement record.
  for (let d = 0; d < plan.days; d += 200) {
    const last = Math.min(plan.days, d + 200);
    await storage.write(async (tx) => {
      for (let b = d; b < last; b += 1) await recordBatchTotals(tx, batchBase + b);
    });
  }
  // The days were settled before the sample (made through the API today) but written after it: the
  // Reporting group's running totals (domain/report-rollups.ts) are written again in settlement order.
  await storage.write((tx) => replayReportRollups(tx, plan.mid));
  if (plan.days > 0) {
    const settlementBase = (await maxId(q, 'settlements')) + 1;
    await run(
      storage,
      () => sql`insert into settlements (id, mid, amount_settled_cents, batch_numbers, completed_on)
        select ${sql.lit(settlementBase)} - ${sql.lit(batchBase)} + b.id, b.mid,
          (select coalesce(sum(t.sale_cents) - sum(t.return_cents), 0) from batch_totals t where t.batch_id = b.id),
          '["' || b.batch_number || '"]', b.settled_at
        from batches b where b.id >= ${sql.lit(batchBase)} and b.id < ${sql.lit(batchBase + plan.days)}`,
    );
    await run(
      storage,
      () => sql`update batches set settlement_id = ${sql.lit(settlementBase)} - ${sql.lit(batchBase)} + id
        where id >= ${sql.lit(batchBase)} and id < ${sql.lit(batchBase + plan.days)}`,
    );
  }

  const links = Math.floor(total * (plan.linksPer ?? 1 / 100));
  const billings = Math.floor(total * (plan.billingsPer ?? 1 / 200));
  const spread = (n: number) => sql.lit(Math.max(1, Math.floor((plan.days * 86_400) / Math.max(1, n))));
  await copyRows(storage, 'payment_links', plan.mid, links, (tx, i) => ({
    link_id: sql`'00000000-0000-4000-8000-' || ${padded(tx, i, 12)}`,
    created_on: isoAt(tx, firstDay, sql`${i} * ${spread(links)}`),
  }));
  await copyRows(storage, 'recurring_billings', plan.mid, billings, (tx, i) => ({
    added_on: isoAt(tx, firstDay, sql`${i} * ${spread(billings)}`),
    // Never due while a benchmark runs: the recurring scheduler is no part of what is measured.
    next_due_date: sql`'2999-01-01'`,
  }));

  if (storage.dialect === 'postgres') {
    for (const table of ['payments', 'batches', 'settlements', 'payment_links', 'recurring_billings']) {
      await run(
        storage,
        () =>
          sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`,
      );
    }
    // What autovacuum would have done over the years: the planner knows the tables' sizes.
    await run(storage, () => sql`analyze`);
  }
  return { payments: total, batches: plan.days, links, billings, firstPaymentId: paymentBase };
}

/** `n` copies of the merchant's first row of `table` (from the sample), a few columns changed. */
async function copyRows(
  storage: Storage,
  table: 'payment_links' | 'recurring_billings',
  mid: number,
  n: number,
  changed: (tx: Queryable, i: RawBuilder<unknown>) => Record<string, RawBuilder<unknown>>,
): Promise<void> {
  if (n === 0) return;
  const q = storage.read;
  const template = await q.first(
    q.qb.selectFrom(table).select('id').where('mid', '=', mid).orderBy('id').limit(1),
  );
  if (!template) throw new Error(`the sample has no ${table} row to copy`);
  const columns = (await columnsOf(q, table)).filter((c) => c !== 'id');
  for (let from = 0; from < n; from += CHUNK) {
    const to = Math.min(n, from + CHUNK);
    await run(storage, (tx) => {
      const values = changed(tx, sql`i`);
      return sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))})
        select ${sql.join(columns.map((c) => values[c] ?? sql.ref(`t.${c}`)))}
        from ${numbers(tx, from, to)} join ${sql.table(table)} t on t.id = ${sql.lit(template.id)}`;
    });
  }
}
