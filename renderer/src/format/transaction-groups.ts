import type { JournalState, TransactionView } from '../../../common/bridge/contract';
import { shownCents, takenCents } from '../../../common/transaction-amounts';
import { formatCents, formatTime } from './money';

/**
 * Today's transactions as the cashier reads them: grouped by sale (a ticket's tenders, and the refunds and
 * voids of them), each state in words. A refund or a void done never reads "Approved", and a sale's figure
 * is what it took (common/transaction-amounts.ts): a hold charged nothing, a gift card load is what the
 * money paid for.
 */

const stateWords: Record<JournalState, string> = {
  sending: 'Sending',
  approved: 'Approved',
  partial: 'Partially approved',
  declined: 'Declined',
  unknown: 'No answer',
  'awaiting-card': 'Waiting for the card',
  reversing: 'Reversing',
  reversed: 'Reversed',
  voided: 'Voided',
  refunded: 'Refunded',
  stored: 'Stored offline',
  failed: 'Failed',
};

/** A row's state in words: a refund or a void the gateway accepted is done, not an "approved" sale. */
export function statusWord(t: TransactionView): string {
  if (t.state === 'approved' && t.operation === 'refund') return 'Refunded';
  if (t.state === 'approved' && t.operation === 'void') return 'Voided';
  return stateWords[t.state];
}

export const operationWords: Record<TransactionView['operation'], string> = {
  sale: 'Credit sale',
  preauth: 'Pre-authorization',
  'preauth-complete': 'Completion',
  debit: 'Debit sale',
  'ebt-food': 'EBT food',
  'ebt-cash': 'EBT cash',
  'gift-sale': 'Gift sale',
  'gift-reload': 'Gift reload',
  check: 'Check',
  'token-sale': 'Card on file',
  cash: 'Cash',
  refund: 'Refund',
  void: 'Void',
};

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
  const took = charged(rows);
  if (took.length === 0) {
    const held = holds(rows);
    if (held.some((r) => r.state === 'approved')) return 'Held, nothing charged yet';
    if (held.length > 0) return 'Hold released';
    return rows.some((r) => r.state === 'unknown' || r.state === 'reversing')
      ? 'No answer, reversing'
      : 'Not paid';
  }
  if (took.every((r) => r.state === 'voided')) return 'Voided';
  if (took.every((r) => r.state === 'voided' || r.state === 'reversed' || r.state === 'reversing'))
    return 'Cancelled, reversed';
  const refunded = took.reduce((s, r) => s + r.refundedCents, 0);
  if (refunded > 0)
    return refunded >= took.reduce((s, r) => s + takenCents(r), 0) ? 'Refunded' : 'Part refunded';
  return took.some((r) => r.state === 'stored') ? 'Paid (stored offline)' : 'Paid';
}

export function isTicket(g: SaleGroup): boolean {
  return g.key.startsWith('ticket:');
}

export function groupTitle(g: SaleGroup, zone: string): string {
  const first = g.rows[0];
  if (!first) return '';
  const payments = g.rows.filter(isPayment);
  const kind = !isTicket(g)
    ? operationWords[first.operation]
    : payments.some((r) => r.operation === 'preauth')
      ? 'Hold'
      : payments.some((r) => r.operation === 'gift-reload')
        ? 'Gift card load'
        : 'Sale';
  const sum = (rows: readonly TransactionView[]) => rows.reduce((s, r) => s + takenCents(r), 0);
  const took = sum(charged(g.rows)) || sum(holds(g.rows));
  const last = payments.at(-1) ?? first;
  const amount = took > 0 ? took : shownCents(last);
  const tenderCount = payments.filter(
    (r) => r.ticketId !== undefined && r.operation !== 'gift-reload',
  ).length;
  const tenders = tenderCount > 1 ? ` · ${tenderCount} tenders` : '';
  return `${kind} at ${formatTime(first.createdAt, zone)} · ${formatCents(amount)} · ${saleStatus(g.rows)}${tenders}`;
}
