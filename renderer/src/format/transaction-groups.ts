import type { TransactionView } from '../../../common/bridge/contract';
import { shownCents, takenCents } from '../../../common/transaction-amounts';
import { i18n } from '../i18n/i18n';
import { formatCents, formatTime } from './money';

/**
 * Today's transactions as the cashier reads them: grouped by sale (a ticket's tenders, and the refunds and
 * voids of them), each state in words. A refund or a void done never reads "Approved", and a sale's figure
 * is what it took (common/transaction-amounts.ts): a hold charged nothing, a gift card load is what the
 * money paid for.
 */

/** A row's state in words: a refund or a void the gateway accepted is done, not an "approved" sale. */
export function statusWord(t: TransactionView): string {
  if (t.state === 'approved' && t.operation === 'refund') return i18n.t('transactions:state.refunded');
  if (t.state === 'approved' && t.operation === 'void') return i18n.t('transactions:state.voided');
  return i18n.t(`transactions:state.${t.state}`);
}

/** A row's operation in words ("Credit sale", "Refund"), in the window's language. */
export function operationWord(operation: TransactionView['operation']): string {
  return i18n.t(`transactions:operation.${operation}`);
}

export function isPayment(t: TransactionView): boolean {
  return t.operation !== 'refund' && t.operation !== 'void';
}

/** One sale (a ticket's tenders, and the refunds and voids of them), or a payment outside any ticket. */
export type SaleGroup = { key: string; rows: TransactionView[] };

/**
 * The rows grouped by sale: a ticket's tenders together, each refund or void with the payment it gave
 * back (by the original's gateway id). Groups come newest first, their rows in the order they happened.
 */
export function groupBySale(rows: readonly TransactionView[]): SaleGroup[] {
  const groupOfSrn = new Map<string, string>();
  const groups = new Map<string, TransactionView[]>();
  const keyOf = new Map<string, string>();
  for (const r of [...rows].reverse()) {
    const original = r.originalServiceReferenceNumber;
    const key =
      (r.ticketId ? `ticket:${r.ticketId}` : undefined) ??
      (original ? groupOfSrn.get(original) : undefined) ??
      `tx:${r.userTransactionNumber}`;
    if (r.serviceReferenceNumber && isPayment(r)) groupOfSrn.set(r.serviceReferenceNumber, key);
    keyOf.set(r.userTransactionNumber, key);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const order: string[] = [];
  for (const r of rows) {
    const key = keyOf.get(r.userTransactionNumber);
    if (key && !order.includes(key)) order.push(key);
  }
  return order.map((key) => ({ key, rows: groups.get(key) ?? [] }));
}

/**
 * The payments of a group that took the customer's money. A hold (pre-authorization) charged nothing; a
 * gift card load is what the money paid for, not a payment.
 */
function charged(rows: readonly TransactionView[]): TransactionView[] {
  return rows.filter(
    (r) => isPayment(r) && r.operation !== 'preauth' && r.operation !== 'gift-reload' && takenCents(r) > 0,
  );
}

function holds(rows: readonly TransactionView[]): TransactionView[] {
  return rows.filter((r) => r.operation === 'preauth' && takenCents(r) > 0);
}

/** What became of a sale, in words, from its tenders (a voided sale never reads "Paid" or "Approved"). */
export function saleStatus(rows: readonly TransactionView[]): string {
  return i18n.t(`transactions:sale.${saleStanding(rows)}`);
}

type Standing =
  | 'held'
  | 'released'
  | 'reversing'
  | 'notPaid'
  | 'voided'
  | 'reversed'
  | 'refunded'
  | 'partRefunded'
  | 'paidStored'
  | 'paid';

function saleStanding(rows: readonly TransactionView[]): Standing {
  const took = charged(rows);
  if (took.length === 0) {
    const held = holds(rows);
    if (held.some((r) => r.state === 'approved')) return 'held';
    if (held.length > 0) return 'released';
    return rows.some((r) => r.state === 'unknown' || r.state === 'reversing') ? 'reversing' : 'notPaid';
  }
  if (took.every((r) => r.state === 'voided')) return 'voided';
  if (took.every((r) => r.state === 'voided' || r.state === 'reversed' || r.state === 'reversing'))
    return 'reversed';
  const refunded = took.reduce((s, r) => s + r.refundedCents, 0);
  if (refunded > 0)
    return refunded >= took.reduce((s, r) => s + takenCents(r), 0) ? 'refunded' : 'partRefunded';
  return took.some((r) => r.state === 'stored') ? 'paidStored' : 'paid';
}

export function isTicket(g: SaleGroup): boolean {
  return g.key.startsWith('ticket:');
}

export function groupTitle(g: SaleGroup, zone: string): string {
  const first = g.rows[0];
  if (!first) return '';
  const payments = g.rows.filter(isPayment);
  const kind = !isTicket(g)
    ? operationWord(first.operation)
    : payments.some((r) => r.operation === 'preauth')
      ? i18n.t('transactions:group.hold')
      : payments.some((r) => r.operation === 'gift-reload')
        ? i18n.t('transactions:group.load')
        : i18n.t('transactions:group.sale');
  const sum = (rows: readonly TransactionView[]) => rows.reduce((s, r) => s + takenCents(r), 0);
  const took = sum(charged(g.rows)) || sum(holds(g.rows));
  const last = payments.at(-1) ?? first;
  const amount = took > 0 ? took : shownCents(last);
  const tenderCount = payments.filter(
    (r) => r.ticketId !== undefined && r.operation !== 'gift-reload',
  ).length;
  const words = {
    kind,
    time: formatTime(first.createdAt, zone),
    amount: formatCents(amount),
    status: saleStatus(g.rows),
  };
  return tenderCount > 1
    ? i18n.t('transactions:group.titleTenders', { ...words, count: tenderCount })
    : i18n.t('transactions:group.title', words);
}
