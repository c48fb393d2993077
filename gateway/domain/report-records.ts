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

export async function paymentReport(
  q: Queryable,
  filter: { mid: number; userId?: number; cid?: number },
): Promise<TransactionReportRecord[]> {
  let query = q.qb
    .selectFrom('payments as p')
    .leftJoin('batches as b', 'b.id', 'p.batch_id')
    .leftJoin('payments as parent', 'parent.id', 'p.parent_id')
    .selectAll('p')
    .select(['b.batch_number as batch_number', 'parent.srn as parent_srn'])
    .where('p.mid', '=', filter.mid)
    .where('p.status', '!=', 'pending');
  if (filter.userId !== undefined) query = query.where('p.user_id', '=', filter.userId);
  if (filter.cid !== undefined) query = query.where('p.cid', '=', filter.cid);
  const rows = await q.all(query.orderBy('p.id'));
  return rows.map((r) => reportRecord(r as Joined));
}
