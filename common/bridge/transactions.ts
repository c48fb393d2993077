import { Type, type Static } from 'typebox';
import { Cents, Limit, Text } from './schema-kit';
import { OptionalApproval } from './session';

export type JournalState =
  | 'sending' // committed, request leaving (only seen after a crash, until recovery)
  | 'approved'
  | 'partial'
  | 'declined'
  | 'unknown' // no answer: queued for reversal
  | 'awaiting-card' // a contact chip sale the issuer approved, until the card's TC (AAC or no answer: reversed)
  | 'reversing'
  | 'reversed'
  | 'voided'
  | 'refunded'
  | 'stored' // store-and-forward, waiting for the gateway
  | 'failed'; // refused before charging (invalid, unreachable)

export type JournalOperation =
  | 'sale'
  | 'preauth'
  | 'preauth-complete'
  | 'debit'
  | 'ebt-food'
  | 'ebt-cash'
  | 'gift-sale'
  | 'gift-reload'
  | 'check'
  | 'token-sale'
  | 'cash'
  | 'refund'
  | 'void';

export type TransactionView = {
  userTransactionNumber: string;
  ticketId?: string;
  operation: JournalOperation;
  state: JournalState;
  /** What was asked (the tip apart, in `tipCents`). */
  amountCents: number;
  tipCents: number;
  /** PIN debit: the cash paid out with the purchase; the card is charged both. */
  cashBackCents: number;
  /**
   * What the gateway approved, tip included (a partial approval: less than asked; 0 when never approved).
   * Every view states a payment by it: common/transaction-amounts.ts.
   */
  approvedCents?: number;
  /** The payment was in a batch this lane has since closed: it can be refunded, no longer voided. */
  settled?: boolean;
  last4?: string;
  cardType?: string;
  authCode?: string;
  serviceReferenceNumber?: string;
  /** For refunds and voids: the original's gateway id. */
  originalServiceReferenceNumber?: string;
  refundedCents: number;
  createdAt: number;
  updatedAt: number;
  message?: string;
  /** A contact chip sale: the card's answer to the approval (TC confirmed it; AAC refused it: reversed). */
  cardDecision?: 'TC' | 'AAC';
  /** The Issuer Script Results (9F5B) the card reported, hex: 5 bytes per issuer script. */
  scriptResults?: string;
  /** The employee who took it (absent on rows from before employees). */
  employeeId?: number;
  employeeName?: string;
  /** The manager who approved it for them (a refund, a void, a completion tip above the share…). */
  approvedById?: number;
  approvedByName?: string;
};

/** A row of transactions.list: the transaction and where the list continues after it. */
export type TransactionListRow = TransactionView & { cursor: string };

export const TransactionQuerySchema = Type.Object({
  last4: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', problem: 'Search by the last four digits.' })),
  amountCents: Type.Optional(Cents({ problem: 'The amount is in cents.' })),
  /** Default: since local midnight of today. */
  since: Type.Optional(Type.Number()),
  /** Rows on one page: 500 unless asked, 5000 at most. */
  limit: Type.Optional(Limit()),
  /** The next page: the `cursor` of the last row of the page before (opaque; newest first). */
  before: Type.Optional(
    Type.String({ maxLength: 40, problem: 'The page cursor is a cursor from the list.' }),
  ),
});
export type TransactionQuery = Static<typeof TransactionQuerySchema>;

export const RefundRequestSchema = Type.Object({
  serviceReferenceNumber: Text(64, 'serviceReferenceNumber'),
  /** Omit for a full refund of the remaining balance. */
  amountCents: Type.Optional(
    Cents({ exclusiveMinimum: 0, problem: 'The refund amount must be a positive number of cents.' }),
  ),
  approval: OptionalApproval,
});
export type RefundRequest = Static<typeof RefundRequestSchema>;

export const VoidRequestSchema = Type.Object({
  serviceReferenceNumber: Text(64, 'serviceReferenceNumber'),
  approval: OptionalApproval,
});
export type VoidRequest = Static<typeof VoidRequestSchema>;

export type RefundOutcome = {
  transaction: TransactionView;
  /** For a refund: how much stays refundable on the original. */
  remainingRefundableCents?: number;
};
