import type { BatchDetailRow } from '../../contract/reporting';
import type { Queryable } from '../../storage/queryable';
import type { PaymentsTable } from '../../storage/schema';
import { chargedCents } from '../rules/card-paid';
import type { Cents } from '../money';
import { settledSpan, spanSums, type Range } from '../report-windows';
import {
  type Page,
  type Paged,
  KEYED_MODES,
  cardDescription,
  ENTRY_MODES,
  maskedCard,
  money,
  localDate,
  offsetOf,
} from './shared';

function description(operation: string, transactionType: number): string {
  if (operation === 'refund') {
    return transactionType === 7 ? 'Gift card return' : transactionType === 6 ? 'EBT food return' : 'Return';
  }
  const names: Record<string, string> = {
    sale: 'Credit sale',
    completion: 'Preauthorization completion',
    debit: 'PIN debit sale',
    token_sale: 'Token sale',
    wallet_a: 'Device wallet sale',
    wallet_b: 'Device wallet sale',
    force: 'Force sale',
    gift_sale: 'Gift card sale',
    gift_reload: 'Gift card reload',
    gift_activate: 'Gift card activation',
    ebt_food_sale: 'EBT food sale',
    ebt_cash_sale: 'EBT cash sale',
    ebt_cash_withdrawal: 'EBT cash withdrawal',
  };
  return names[operation] ?? operation;
}

type DetailRow = Pick<
  PaymentsTable,
  | 'srn'
  | 'auth_code'
  | 'card_type'
  | 'first6'
  | 'last4'
  | 'entry_mode'
  | 'invoice'
  | 'operation'
  | 'transaction_type'
  | 'created_at'
  | 'amount_cents'
  | 'tax_cents'
  | 'tip_cents'
  | 'surcharge_cents'
  | 'card_difference_cents'
  | 'cashback_cents'
> & { settled_at: string | null };

/** GetBatchDetail's columns of a payment. */
const DETAIL_COLUMNS = [
  'p.srn',
  'p.auth_code',
  'p.card_type',
  'p.first6',
  'p.last4',
  'p.entry_mode',
  'p.invoice',
  'p.operation',
  'p.transaction_type',
  'p.created_at',
  'p.amount_cents',
  'p.tax_cents',
  'p.tip_cents',
  'p.surcharge_cents',
  'p.card_difference_cents',
  'p.cashback_cents',
] as const;

/** Numbers `from`..`to` (inclusive) of the merchant's settled approved payments (batch_detail_rows). */
type Positions = { from: number; to: number };

/**
 * The page of GetBatchDetail. The window's settled approved payments are a run of the numbers
 * batch_detail_rows gives them in the report's order (report-rollups.ts), from the running count before the
 * window's first batch to the one at its last: a page is a range of those numbers read through the
 * primary key, as cheap for the last page of ten years as for the first of a week (no OFFSET). The count
 * and Total are the running totals' difference. A batch number selects its batch's run (or those of the
 * few batches that share it).
 */
async function batchDetailPage(
  q: Queryable,
  mid: number,
  filter: { batchNumber?: string | undefined; reportRange: Range },
  p: Page,
) {
  let runs: Positions[];
  let count: number;
  let amount: Cents;
  if (filter.batchNumber === undefined) {
    const span = await settledSpan(q, mid, filter.reportRange);
    if (!span) return { rows: [], count: 0, amount: 0 };
    const s = spanSums(span);
    runs = [{ from: span.before.n + 1, to: span.upTo.n }];
    count = s.n;
    amount = s.sale_cents - s.return_cents;
  } else {
    let query = q.qb
      .selectFrom('batches as b')
      .innerJoin('batch_rollups as r', 'r.batch_id', 'b.id')
      .select(['r.n as n', 'r.cum_n as cum_n', 'r.sale_cents as sale', 'r.return_cents as ret'])
      .where('b.mid', '=', mid)
      .where('b.batch_number', '=', filter.batchNumber)
      .where('r.mid', '=', mid);
    const range = filter.reportRange;
    if (range.fromIso) query = query.where('r.settled_at', '>=', range.fromIso);
    if (range.toIso) query = query.where('r.settled_at', '<', range.toIso);
    const batches = await q.all(query.orderBy('r.seq'));
    runs = batches.map((b) => ({ from: Number(b.cum_n) - Number(b.n) + 1, to: Number(b.cum_n) }));
    count = batches.reduce((sum, b) => sum + Number(b.n), 0);
    amount = batches.reduce((sum, b) => sum + Number(b.sale) - Number(b.ret), 0);
  }
  let skip = offsetOf(p);
  const rows: (Omit<DetailRow, 'settled_at'> & { batch_id: number | null })[] = [];
  for (const run of runs) {
    if (rows.length >= p.size) break;
    const length = run.to - run.from + 1;
    if (skip >= length) {
      skip -= length;
      continue;
    }
    const from = run.from + skip;
    const to = Math.min(run.to, from + (p.size - rows.length) - 1);
    skip = 0;
    const slice = await q.all(
      q.qb
        .selectFrom('batch_detail_rows as d')
        .innerJoin('payments as p', 'p.id', 'd.payment_id')
        .select([...DETAIL_COLUMNS, 'p.batch_id as batch_id'])
        .where('d.mid', '=', mid)
        .where('d.pos', '>=', from)
        .where('d.pos', '<=', to)
        .orderBy('d.pos')
        .limit(to - from + 1),
    );
    rows.push(...slice);
  }
  // The page's batches by their keys: joined, a planner with years of batches could hash them all.
  const ids = [...new Set(rows.map((r) => Number(r.batch_id)))];
  const settled = new Map(
    (ids.length > 0
      ? await q.all(q.qb.selectFrom('batches').select(['id', 'settled_at']).where('id', 'in', ids))
      : []
    ).map((b) => [Number(b.id), b.settled_at]),
  );
  return {
    rows: rows.map((r) => ({ ...r, settled_at: settled.get(Number(r.batch_id)) ?? null })),
    count,
    amount,
  };
}

/** GetBatchDetail: the payments of the settled batches, paged in the database; Total over all of them. */
export async function batchDetail(
  q: Queryable,
  mid: number,
  zone: string,
  filter: { batchNumber?: string | undefined; reportRange: Range },
  p: Page,
): Promise<Paged<BatchDetailRow>> {
  const found = await batchDetailPage(q, mid, filter, p);
  return {
    rows: found.rows.map((r) => {
      const keyed = (KEYED_MODES as readonly string[]).includes(r.entry_mode);
      const total = chargedCents(r);
      const pin = r.transaction_type === 5 || r.transaction_type === 6;
      return {
        AuthorizationNumber: r.auth_code,
        CardDescription: cardDescription(r.card_type),
        CardNumber: maskedCard(r.first6, r.last4),
        CardType: r.card_type,
        EntryModeDescription: ENTRY_MODES[r.entry_mode] ?? r.entry_mode,
        InvoiceNumber: r.invoice ?? '',
        Keyed: keyed ? 'Y' : 'N',
        RegulatedIDDescription: 'Not regulated',
        ReportDate: localDate(r.settled_at, zone),
        TransactionCode: r.operation === 'refund' ? 'R' : 'S',
        TransactionDate: r.created_at,
        TransactionDescription: description(r.operation, r.transaction_type),
        TransactionID: r.srn,
        DebitRoutingMethodID: pin ? 1 : 0,
        RegulatedID: 0,
        TransactionAmount: money(r.operation === 'refund' ? -r.amount_cents : total),
      };
    }),
    total: {
      AuthorizationNumber: '',
      CardDescription: 'Total',
      CardNumber: '',
      CardType: '',
      EntryModeDescription: '',
      InvoiceNumber: '',
      Keyed: '',
      RegulatedIDDescription: '',
      ReportDate: '',
      TransactionCode: '',
      TransactionDate: '',
      TransactionDescription: '',
      TransactionID: '',
      DebitRoutingMethodID: 0,
      RegulatedID: 0,
      TransactionAmount: money(found.amount),
    },
    count: found.count,
  };
}
