import type { TransactionReportRecord } from '../contract/report';
import type { Queryable } from '../storage/queryable';
import { fromCents } from './money';
import { totalAmountCents } from './rules/card-paid';
import type { PaymentRow } from './sale-response';

const SWIPED_MODES = new Set(['Swiped', 'ChipFallbackSwipe', 'Chip', 'Contactless', 'NetworkAContactless']);

type Joined = PaymentRow & { batch_number: string | null; parent_srn: string | null };

/**
 * A payment as the Report group shows it. The interface's amount rules: Amount is the base amount;
 * TotalAmount = base + tax + surcharge + card difference + tip (cash back excluded); RefundedAmount is null
 * before any refund and then the remaining refundable balance (kept for compatibility);
 * RemainingRefundableAmount names that balance; TotalRefundedAmount is the cumulative refunded amount.
 */
export function reportRecord(p: Joined): TransactionReportRecord {
  const total = totalAmountCents(p);
  const refundable = p.operation !== 'refund' && p.operation !== 'preauth' && p.status === 'approved';
  const remaining = refundable ? total - p.refunded_cents : 0;
  return {
    ID: p.id,
    MID: p.mid,
    CID: p.cid,
    ServiceReferenceNumber: p.srn,
    UserTransactionNumber: p.utn,
    TransactionType: p.operation,
    Status: p.status,
    Amount: fromCents(p.amount_cents),
    TaxAmount: fromCents(p.tax_cents),
    SurchargeAmount: fromCents(p.surcharge_cents),
    CardDifferenceAmount: fromCents(p.card_difference_cents),
    TipAmount: fromCents(p.tip_cents),
    CashBackAmount: fromCents(p.cashback_cents),
    TotalAmount: fromCents(total),
    RefundedAmount: p.refunded_cents > 0 ? fromCents(remaining) : null,
    RemainingRefundableAmount: fromCents(remaining),
    TotalRefundedAmount: fromCents(p.refunded_cents),
    AuthCode: p.auth_code,
    BankAuthorizationNumber: p.auth_code,
    BankMsg: p.response_msg,
    GatewayMsg: p.response_msg,
    CV_VerificationResult: p.cvn_result,
    CardType: p.card_type,
    CurrencyCode: p.currency,
    LastFour: p.last4,
    PlanId: 0,
    CardWasSwiped: SWIPED_MODES.has(p.entry_mode) ? 1 : 0,
    MadeOn: p.created_at,
    BatchNumber: p.batch_number,
    OriginalServiceReferenceNumber: p.parent_srn,
    InvoiceNumber: p.invoice,
    IsTest: p.is_test === 1,
    PaymentLinkId: p.payment_link_id,
    Source: p.source,
  };
}

/**
 * What a Report group listing asks for. Old clients send the merchant (and user and cashier) only: every
 * transaction. StartDate/EndDate bound MadeOn (at or after, at or before: as GetSettlementsByDate bounds
 * CompletedOn); BatchNumber names one batch.
 */
export type ReportFilter = {
  mid: number;
  userId?: number | undefined;
  cid?: number | undefined;
  fromIso?: string | undefined;
  toIso?: string | undefined;
  batchNumber?: string | undefined;
};

/** Rows read per query: a slice, so no query and no answer holds more than this at once. */
export const REPORT_SLICE = 500;

/**
 * The transactions of a Report group listing, in id order (what clients have always had), read a slice at
 * a time by keyset (`id > last`) through an index that starts with the merchant (`payments_by_mid_id`,
 * `payments_by_user_cashier`, `payments_by_batch`), so a report of years streams in constant memory and
 * never holds a read transaction open on SQLite (the WAL keeps checkpointing while it streams).
 * The report is as of its start: payments made while it streams are not in it (`id <= top`). With a
 * time window, the slices follow `payments_by_mid_time` in (MadeOn, id) order instead; one batch is read
 * whole (a day's payments) through `payments_by_batch`.
 */
export async function* paymentReport(
  q: Queryable,
  filter: ReportFilter,
): AsyncGenerator<TransactionReportRecord> {
  let batchId: number | undefined;
  if (filter.batchNumber !== undefined) {
    const batch = await q.first(
      q.qb
        .selectFrom('batches')
        .select('id')
        .where('mid', '=', filter.mid)
        .where('batch_number', '=', filter.batchNumber),
    );
    if (!batch) return;
    batchId = batch.id;
  }
  const joined = () =>
    q.qb
      .selectFrom('payments as p')
      .leftJoin('batches as b', 'b.id', 'p.batch_id')
      .leftJoin('payments as parent', 'parent.id', 'p.parent_id')
      .selectAll('p')
      .select(['b.batch_number as batch_number', 'parent.srn as parent_srn'])
      .where('p.status', '!=', 'pending');
  if (batchId !== undefined) {
    // One batch is one day's payments: read at once through payments_by_batch. The merchant and the id
    // order stay out of the condition, or a plan could walk the merchant's every id looking for the batch.
    let query = joined().where('p.batch_id', '=', batchId);
    if (filter.userId !== undefined) query = query.where('p.user_id', '=', filter.userId);
    if (filter.cid !== undefined) query = query.where('p.cid', '=', filter.cid);
    if (filter.fromIso !== undefined) query = query.where('p.created_at', '>=', filter.fromIso);
    if (filter.toIso !== undefined) query = query.where('p.created_at', '<=', filter.toIso);
    for (const r of await q.all(query.orderBy('p.id'))) yield reportRecord(r);
    return;
  }
  const byTime = filter.fromIso !== undefined || filter.toIso !== undefined;
  const top = await q.first(
    q.qb
      .selectFrom('payments')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('mid', '=', filter.mid),
  );
  const topId = top?.id;
  if (topId === null || topId === undefined) return;
  let after: { id: number; at: string } | null = null;
  for (;;) {
    let query = joined().where('p.mid', '=', filter.mid).where('p.id', '<=', topId);
    if (filter.userId !== undefined) query = query.where('p.user_id', '=', filter.userId);
    if (filter.cid !== undefined) query = query.where('p.cid', '=', filter.cid);
    if (filter.fromIso !== undefined) query = query.where('p.created_at', '>=', filter.fromIso);
    if (filter.toIso !== undefined) query = query.where('p.created_at', '<=', filter.toIso);
    const last = after;
    if (last && byTime) {
      query = query.where((eb) => eb(eb.refTuple('p.created_at', 'p.id'), '>', eb.tuple(last.at, last.id)));
    } else if (last) {
      query = query.where('p.id', '>', last.id);
    }
    const ordered = byTime ? query.orderBy('p.created_at').orderBy('p.id') : query.orderBy('p.id');
    const rows = await q.all(ordered.limit(REPORT_SLICE));
    for (const r of rows) yield reportRecord(r);
    const end = rows[rows.length - 1];
    if (rows.length < REPORT_SLICE || !end) return;
    after = { id: end.id, at: end.created_at };
  }
}

/**
 * The UserTransactionNumbers the merchant used, oldest first, a slice at a time by keyset over
 * `transaction_numbers_used` (merchant, time, number); as of the start, like `paymentReport`.
 */
export async function* usedTransactionNumbers(
  q: Queryable,
  filter: Pick<ReportFilter, 'mid' | 'fromIso' | 'toIso'>,
): AsyncGenerator<string> {
  const used = () =>
    q.qb.selectFrom('transaction_numbers').where('mid', '=', filter.mid).where('state', '=', 'used');
  const top = await q.first(used().select((eb) => eb.fn.max('created_at').as('at')));
  const topAt = top?.at;
  if (topAt === null || topAt === undefined) return;
  let after: { at: string; utn: string } | null = null;
  for (;;) {
    let query = used().select(['utn', 'created_at']).where('created_at', '<=', topAt);
    if (filter.fromIso !== undefined) query = query.where('created_at', '>=', filter.fromIso);
    if (filter.toIso !== undefined) query = query.where('created_at', '<=', filter.toIso);
    const last = after;
    if (last) {
      query = query.where((eb) => eb(eb.refTuple('created_at', 'utn'), '>', eb.tuple(last.at, last.utn)));
    }
    // Same-millisecond numbers in a stable order whatever the dialect (PostgreSQL has no rowid order).
    const rows = await q.all(query.orderBy('created_at').orderBy('utn').limit(REPORT_SLICE));
    for (const r of rows) yield r.utn;
    const end = rows[rows.length - 1];
    if (rows.length < REPORT_SLICE || !end) return;
    after = { at: end.created_at, utn: end.utn };
  }
}
