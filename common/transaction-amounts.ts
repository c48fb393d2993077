/**
 * The amounts of one payment as every view states them: the transactions list and its refund ceiling, the
 * manager's approval text, receipts and the batch figures. A payment is recorded with what was asked
 * (`amountCents` + `tipCents`) and what the gateway approved (`approvedCents`, tip included): a partial
 * approval takes less than was asked, and what it took is the amount — also once it is reversed or voided.
 * A PIN debit's cash back (`cashBackCents`) is not part of the purchase: the card is charged both, the
 * drawer pays the cash back out, and only the purchase can be refunded.
 */
export type PaymentAmounts = {
  amountCents: number;
  tipCents: number;
  cashBackCents: number;
  /** Absent from a view built before it was shown: the row then counts as what was asked. */
  approvedCents?: number | undefined;
  refundedCents: number;
};

/** What was asked of the card (or cash): the amount and the tip, cash back apart. */
export function askedCents(p: PaymentAmounts): number {
  return p.amountCents + p.tipCents;
}

/** What the payment took when it was approved (partial: less than asked); 0 when it never was. */
export function takenCents(p: PaymentAmounts): number {
  return p.approvedCents ?? askedCents(p);
}

/**
 * The payment's amount in a list or a dialog: what it took once approved (also after a reversal or a
 * void: the amount that was held), else what was asked (declined, no answer).
 */
export function shownCents(p: PaymentAmounts): number {
  const taken = takenCents(p);
  return taken > 0 ? taken : askedCents(p);
}

/**
 * What a card was charged for one tender: what it took for the purchase plus the cash back paid out with
 * it (a ticket's tender, the sale screen and its receipt).
 */
export function tenderChargedCents(t: { approvedCents: number; cashBackCents: number }): number {
  return t.approvedCents > 0 ? t.approvedCents + t.cashBackCents : 0;
}

/** What the card was charged for a recorded payment: the purchase taken plus the cash back. */
export function cardChargedCents(p: PaymentAmounts): number {
  return tenderChargedCents({ approvedCents: takenCents(p), cashBackCents: p.cashBackCents });
}

/** What can still be given back: what the payment took, less what was refunded (never the cash back). */
export function refundableCents(p: PaymentAmounts): number {
  return Math.max(0, takenCents(p) - p.refundedCents);
}
