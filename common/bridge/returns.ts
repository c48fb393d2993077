import { Type, type Static } from 'typebox';
import { Cents, Text } from './schema-kit';
import { OptionalApproval } from './session';

/**
 * Returns from a receipt (docs/terminal.md "Returns"): a sale found by its receipt number (the ticket id the
 * receipt prints as `TICKET <ticketId>` and carries in its code), or by a date range, a card's last four or
 * an amount, on any day; the lines and quantities chosen; the money back in proportion to the cent
 * (common/proportional-return.ts) to the sale's own tenders in an order the cashier sees and may change. A
 * return without a receipt needs a manager and refunds to cash or a gift card (the store's setting).
 */

const Day = Type.String({
  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  problem: 'A day is YYYY-MM-DD.',
});

/** Where a page of found sales ends: the next page starts after it (opaque to the screen). */
export const ReturnCursorSchema = Type.Object(
  { at: Type.Integer({ minimum: 0 }), key: Text(64, 'key') },
  { problem: 'Continue from the previous page.' },
);
export type ReturnCursor = Static<typeof ReturnCursorSchema>;

/**
 * Find a sale: its receipt number alone (scanned or typed), or any of a store-day range, a card's last
 * four and the sale's total. Newest first, a page at a time.
 */
export const ReturnFindSchema = Type.Object({
  receipt: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, problem: 'Scan or type the receipt number.' }),
  ),
  fromDay: Type.Optional(Day),
  toDay: Type.Optional(Day),
  last4: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', problem: 'Search by the last four digits.' })),
  amountCents: Type.Optional(
    Cents({ exclusiveMinimum: 0, problem: 'The amount must be a positive number of cents.' }),
  ),
  after: Type.Optional(ReturnCursorSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, problem: 'A page is 1 to 50 sales.' })),
});
export type ReturnFind = Static<typeof ReturnFindSchema>;

/** How the money of a tender goes back: to the card at the gateway, from the drawer, to a gift card. */
export type ReturnLegKind = 'card' | 'cash' | 'gift-card';

export type ReturnSaleTenderView = {
  kind: string;
  /** 'Credit', 'Cash', … as the reports name tenders. */
  tender: string;
  /** What a person reads: 'Visa ****1111', 'Cash'. Never more than the last four. */
  label: string;
  amountCents: number;
};

/** A sale as the list of found sales shows it. */
export type ReturnSaleSummaryView = {
  ticketId: string;
  closedAt: number;
  totalCents: number;
  /** Units sold (an open-amount sale counts as one). */
  units: number;
  tenders: ReturnSaleTenderView[];
  employeeName?: string;
};

export type ReturnFindResult = { sales: ReturnSaleSummaryView[]; next?: ReturnCursor };

/** One line of a sale, with what earlier returns took back of it. */
export type ReturnableLineView = {
  /** Its place on the ticket (voided lines keep theirs and are not listed). */
  lineNo: number;
  name: string;
  sku?: string;
  quantity: number;
  returnedQuantity: number;
  unitPriceCents: number;
  /** What the line cost the customer, its added tax included. */
  totalCents: number;
  taxCents: number;
  /** Its line discount and its share of the ticket discount. */
  discountCents: number;
};

/** One tender of the sale, as a return can use it. */
export type ReturnTenderOptionView = {
  /** Its journal number: what `order` names. */
  key: string;
  kind: ReturnLegKind;
  tender: string;
  label: string;
  paidCents: number;
  /** What can still go back to it (earlier refunds and returns in progress deducted). */
  refundableCents: number;
  /** Why nothing can go back to it here (an EBT payment, a hold), when that is so. */
  unavailable?: string;
};

export type ReturnSummaryView = {
  returnId: number;
  createdAt: number;
  totalCents: number;
  state: ReturnState;
};

export type ReturnableSaleView = {
  ticketId: string;
  closedAt: number;
  totalCents: number;
  taxCents: number;
  tipCents: number;
  employeeName?: string;
  /** A ticket of lines; false: an open amount, returned as its one line. */
  itemized: boolean;
  lines: ReturnableLineView[];
  tenders: ReturnTenderOptionView[];
  /** The default order of the money back: cards first (in the order paid), cash last. */
  order: string[];
  returns: ReturnSummaryView[];
};

export const ReturnLineSchema = Type.Object({
  lineNo: Type.Integer({ minimum: 0, maximum: 9999, problem: 'Choose a line of the sale.' }),
  quantity: Type.Integer({ minimum: 0, maximum: 9999, problem: 'A quantity is a whole number.' }),
});

const Lines = Type.Array(ReturnLineSchema, {
  minItems: 1,
  maxItems: 500,
  problem: 'Choose what comes back.',
});
/** The tenders' keys in the order the money goes back to them (every tender the return may use). */
const Order = Type.Optional(Type.Array(Text(64, 'tender'), { maxItems: 50 }));

/** A gift card to credit: swiped at the reader, or its number typed. Never journaled or echoed. */
export const ReturnGiftCardSchema = Type.Union(
  [
    Type.Object({ entry: Type.Literal('swipe') }),
    Type.Object({ entry: Type.Literal('keyed'), cardNumber: Text(19, 'cardNumber') }),
  ],
  { problem: 'Swipe the gift card or type its number.' },
);
export type ReturnGiftCard = Static<typeof ReturnGiftCardSchema>;

export const ReturnQuoteSchema = Type.Object({
  ticketId: Text(64, 'ticketId'),
  lines: Lines,
  order: Order,
});
export type ReturnQuote = Static<typeof ReturnQuoteSchema>;

/** How a leg's money goes back, once decided: a refund, a void (unsettled, all of it), the drawer, a gift card. */
export type ReturnMethod = 'refund' | 'void' | 'drawer' | 'gift-card';

export type ReturnLegPlanView = {
  key: string | null;
  kind: ReturnLegKind;
  tender: string;
  label: string;
  amountCents: number;
  method: ReturnMethod;
};

export type ReturnLineAmountView = {
  lineNo: number;
  name: string;
  quantity: number;
  totalCents: number;
  taxCents: number;
};

/** What a return would give back, before it is confirmed: the same rule the return then applies. */
export type ReturnQuoteView = {
  lines: ReturnLineAmountView[];
  totalCents: number;
  taxCents: number;
  netCents: number;
  legs: ReturnLegPlanView[];
};

export const ReturnCreateSchema = Type.Object({
  /** The screen's key for this request: sent again (a lost answer), it answers the same return. */
  requestId: Type.String({
    minLength: 8,
    maxLength: 64,
    pattern: '^[A-Za-z0-9_-]+$',
    problem: 'A request id is 8 to 64 letters, digits, - or _.',
  }),
  ticketId: Text(64, 'ticketId'),
  lines: Lines,
  order: Order,
  giftCard: Type.Optional(ReturnGiftCardSchema),
  reason: Type.Optional(Type.String({ maxLength: 200, problem: 'A reason is at most 200 characters.' })),
});
export type ReturnCreate = Static<typeof ReturnCreateSchema>;

/** An item returned without a receipt: from the catalog (by id or barcode) or an amount typed. */
export const ReturnItemSchema = Type.Object({
  itemId: Type.Optional(Type.Integer({ minimum: 1, problem: 'Choose an item.' })),
  barcode: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, problem: 'Scan the item.' })),
  name: Type.Optional(Type.String({ maxLength: 80, problem: 'A name is at most 80 characters.' })),
  priceCents: Type.Optional(
    Cents({ exclusiveMinimum: 0, problem: 'The price must be a positive number of cents.' }),
  ),
  quantity: Type.Integer({ minimum: 1, maximum: 9999, problem: 'A quantity is a whole number from 1.' }),
});
export type ReturnItem = Static<typeof ReturnItemSchema>;

export const ReturnWithoutReceiptSchema = Type.Object({
  requestId: ReturnCreateSchema.properties.requestId,
  items: Type.Array(ReturnItemSchema, { minItems: 1, maxItems: 100, problem: 'Add what comes back.' }),
  giftCard: Type.Optional(ReturnGiftCardSchema),
  reason: Type.String({ minLength: 1, maxLength: 200, problem: 'Give the reason for the return.' }),
  approval: OptionalApproval,
});
export type ReturnWithoutReceipt = Static<typeof ReturnWithoutReceiptSchema>;

export type ReturnState = 'open' | 'done' | 'incomplete' | 'cancelled';

/** `pending`: not tried yet; `sending`: at the gateway now; `unknown`: no answer (see the reconciliation view). */
export type ReturnLegState = 'pending' | 'sending' | 'done' | 'failed' | 'unknown' | 'cancelled';

export type ReturnLegView = {
  position: number;
  kind: ReturnLegKind;
  tender: string;
  label: string;
  amountCents: number;
  state: ReturnLegState;
  method?: ReturnMethod;
  /** The refund's or void's own journal number (its receipt, its row on Transactions). */
  userTransactionNumber?: string;
  last4?: string;
  cardType?: string;
  message?: string;
  doneAt?: number;
};

export type ReturnView = {
  returnId: number;
  /** The sale it returns; absent for a return without a receipt. */
  ticketId?: string;
  state: ReturnState;
  createdAt: number;
  employeeName: string;
  approvedByName?: string;
  reason?: string;
  lines: ReturnLineAmountView[];
  totalCents: number;
  taxCents: number;
  netCents: number;
  legs: ReturnLegView[];
  /** Money given back so far (legs done). */
  refundedCents: number;
  /** Money still owed to the customer (legs not done): the cashier retries them. */
  owedCents: number;
};

/** Where a return without a receipt puts the money: cash from the drawer, or a gift card (store credit). */
export const NoReceiptRefundSchema = Type.Enum(['cash', 'gift-card'], {
  problem: 'A return without a receipt refunds to cash or a gift card.',
});
export type ReturnSettingsView = { noReceiptRefund: Static<typeof NoReceiptRefundSchema> };
export const ReturnSettingsSchema = Type.Object({ noReceiptRefund: NoReceiptRefundSchema });

/** The figures of the returns in a period, by the tender the money went back to. */
export type ReturnFiguresView = {
  /** Returns with money given back in the period, and that money. */
  total: { count: number; cents: number };
  /** 'Credit', 'Credit (voided)', 'Cash', 'Gift card', … */
  byTender: { key: string; count: number; amountCents: number }[];
};
