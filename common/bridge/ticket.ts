import { Type, type Static } from 'typebox';
import type { Discount, PricedLine, TaxClassRate, TicketPricing } from '../ticket-pricing';
import { CATALOG_LIMITS } from './retail-limits';
import { Cents, Text } from './schema-kit';
import { OptionalApproval, type Role } from './session';

/**
 * A ticket of lines (docs/ticket-pricing.md): catalog items, open items (an amount typed on the keypad,
 * for a store without a catalog or an item not in it) and weighed items (a price-embedded label), each
 * with a quantity, unit price, line discount and tax class, and a ticket discount; priced by the one rule
 * of common/ticket-pricing.ts. Lines change only while nothing is paid. A discount above the manager's
 * limit and a changed catalog price need a manager (`approval`), the core checks it.
 */

export type TicketDiscount = Discount;
export type TicketTaxClass = TaxClassRate;

/** What one approval covers: a later change that gives more than this needs approval again. */
export type ApprovedDiscount =
  | { kind: 'percent'; percent: number; approvedBy: Role; at: number }
  | { kind: 'share'; partCents: number; wholeCents: number; approvedBy: Role; at: number };

export type TicketLineView = {
  lineId: string;
  /** `item`: from the catalog; `open-item`: a typed amount; `weighed`: a price-embedded label. */
  kind: 'item' | 'open-item' | 'weighed';
  name: string;
  itemId?: number;
  sku?: string;
  /** The code scanned for it, if it was scanned. */
  barcode?: string;
  quantity: number;
  unitPriceCents: number;
  /** The catalog price when the line was added: a different unit price is a price override. */
  listPriceCents?: number;
  /** The cashier types the price (the catalog's open-price items). */
  openPrice?: boolean;
  /** The class's rate as it was when the line was added (a later change to the class is not this sale's). */
  taxClass: TicketTaxClass;
  discount?: TicketDiscount;
  voided?: boolean;
  discountApproval?: ApprovedDiscount;
  /** The unit price a manager approved for this line (a price override). */
  priceApproval?: { unitPriceCents: number; approvedBy: Role; at: number };
  /** This line's figures by the pricing rule. */
  priced: PricedLine;
};

export type ItemizedTicketView = {
  lines: TicketLineView[];
  discount?: TicketDiscount;
  discountApproval?: ApprovedDiscount;
  /** The ticket's figures by the pricing rule (its lines' own are on each line). */
  pricing: Omit<TicketPricing, 'lines'>;
};

export const DiscountSchema = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('amount'),
      amountCents: Cents({ minimum: 0, problem: 'A discount is zero or a positive number of cents.' }),
    }),
    Type.Object({
      kind: Type.Literal('percent'),
      percent: Type.Number({
        minimum: 0,
        maximum: 100,
        problem: 'A discount is 0 to 100 %, with at most four decimals.',
      }),
    }),
  ],
  { problem: 'A discount is an amount or a percent.' },
);

const TicketId = Text(64, 'ticketId');
const LineId = Text(64, 'lineId');
const Quantity = Type.Integer({
  minimum: 1,
  maximum: 9999,
  problem: 'A quantity is a whole number from 1 to 9999.',
});
const UnitPrice = Cents({ minimum: 0, problem: 'A price is zero or a positive number of cents.' });

export const TicketAddItemSchema = Type.Object({
  ticketId: TicketId,
  itemId: Type.Integer({ minimum: 1, problem: 'Choose an item.' }),
  quantity: Type.Optional(Quantity),
  /** An open-price item's price, or a catalog price changed (an override: a manager approves). */
  unitPriceCents: Type.Optional(UnitPrice),
  approval: OptionalApproval,
});
export type TicketAddItem = Static<typeof TicketAddItemSchema>;

/**
 * Every change may carry `approval`: any of them can leave a discount above the limit (fewer units under
 * an amount discount), which the core refuses without the manager.
 *
 * A scan for the ticket: the scanner's text (and its AIM identifier when it came apart, HID POS). */
export const TicketAddScanSchema = Type.Object({
  ticketId: TicketId,
  data: Type.String({ minLength: 1, maxLength: 4096, problem: 'A scan is 1 to 4096 characters.' }),
  aimId: Type.Optional(Type.String({ maxLength: 3 })),
  quantity: Type.Optional(Quantity),
  approval: OptionalApproval,
});
export type TicketAddScan = Static<typeof TicketAddScanSchema>;

export const TicketAddOpenItemSchema = Type.Object({
  ticketId: TicketId,
  priceCents: Cents({ exclusiveMinimum: 0, problem: 'The amount must be a positive number of cents.' }),
  quantity: Type.Optional(Quantity),
  /** "Open item" unless named. */
  name: Type.Optional(Type.String({ maxLength: CATALOG_LIMITS.nameLength })),
  /** A catalog tax class; without one, the lane's tax rate (Settings), added to the price. */
  taxClassId: Type.Optional(Type.Integer({ minimum: 1, problem: 'Choose a tax class.' })),
  approval: OptionalApproval,
});
export type TicketAddOpenItem = Static<typeof TicketAddOpenItemSchema>;

export const TicketSetQuantitySchema = Type.Object({
  ticketId: TicketId,
  lineId: LineId,
  quantity: Quantity,
  approval: OptionalApproval,
});
export const TicketSetPriceSchema = Type.Object({
  ticketId: TicketId,
  lineId: LineId,
  unitPriceCents: UnitPrice,
  approval: OptionalApproval,
});
export const TicketSetLineDiscountSchema = Type.Object({
  ticketId: TicketId,
  lineId: LineId,
  /** `null` takes the discount off. */
  discount: Type.Union([DiscountSchema, Type.Null()]),
  approval: OptionalApproval,
});
export const TicketSetDiscountSchema = Type.Object({
  ticketId: TicketId,
  discount: Type.Union([DiscountSchema, Type.Null()]),
  approval: OptionalApproval,
});
/** Voiding a line can need a manager too: an amount off the ticket becomes a bigger share of the rest. */
export const TicketVoidLineSchema = Type.Object({
  ticketId: TicketId,
  lineId: LineId,
  approval: OptionalApproval,
});
