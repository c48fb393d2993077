import { Type, type Static } from 'typebox';
import { LANGUAGES } from '../store-locale';
import { Cents, Text } from './schema-kit';
import { TicketIdSchema, type TicketStatus, type TicketView } from './sale';
import type { StoreLocaleView } from './store-profile';

/**
 * The customer's side (docs/bridge.md "Customer display"): what a customer-facing display reads and what the
 * customer may answer. A customer display is its own kind of bridge connection: it receives only
 * `customer.updated` and may call only the `customer.*` commands, and only while the core asks. Nothing here
 * is cashier-only: no card number beyond the last four, no gateway ids, no authorization codes, no PINs.
 * Words are codes the display turns into the customer's language (renderer/src/screens/customer/strings.ts).
 */

/** One line of the ticket as the customer reads it (today one line, the amount; items once the ticket has them). */
export type CustomerLineView = {
  lineId: string;
  description: string;
  /**
   * A line the terminal names itself (an open amount, a gift card load, the ticket's discount): the
   * display says it in the customer's language; `description` is its English. Absent for a store's item.
   */
  wording?: 'sale' | 'giftCardLoad' | 'discount';
  /** Whole units; absent for an open amount. */
  quantity?: number;
  unitPriceCents?: number;
  /** A discount already taken off `amountCents`, shown beside it. */
  discountCents?: number;
  /** What the line adds to the subtotal. */
  amountCents: number;
};

export type CustomerTicketView = {
  ticketId: string;
  status: TicketStatus;
  lines: CustomerLineView[];
  subtotalCents: number;
  taxCents: number;
  tipCents: number;
  totalCents: number;
  paidCents: number;
  remainingCents: number;
};

/** A tip preset as the customer sees it: the percent and what it adds, by the one rule (common/tip-choice.ts). */
export type CustomerTipOption = { percent: number; tipCents: number };

/** What the core asks the customer now; the customer's command for it is refused at any other time. */
export type CustomerAsk =
  | {
      kind: 'tip';
      ticketId: string;
      /** The pre-tax subtotal the percentages apply to. */
      baseCents: number;
      options: CustomerTipOption[];
      /** A custom tip above this is refused (common/tip-choice.ts). */
      maxCustomCents: number;
    }
  | { kind: 'signature'; ticketId: string; tenderId: string; amountCents: number }
  /** `email`: email receipts are set up on this lane (else the choice says they are not). */
  | { kind: 'receipt'; ticketId: string; email: boolean };

/** What the tender is doing, in steps the display words for the customer. */
export type CustomerPromptStep = 'present-card' | 'reading-card' | 'pin' | 'wait' | 'remove-card' | 'sign';

export type CustomerPromptView = {
  step: CustomerPromptStep;
  /** The card reader's own words where they are the customer's ("Insert card", "Chip could not be read…"). */
  device?: string;
};

export type CustomerOutcomeKind =
  'approved' | 'partial' | 'declined' | 'cancelled' | 'wait' | 'cash' | 'offline' | 'reversed';

/** The last tender's outcome for the customer: the card by its brand and last four at most. */
export type CustomerOutcomeView = {
  kind: CustomerOutcomeKind;
  card?: { cardType?: string; last4?: string };
  amountCents: number;
  /** Cash: the change handed back. */
  changeCents?: number;
};

export type CustomerTipChoiceView = {
  /** Who chose: the customer on the display, or the cashier (a skip, or the tip typed without a display). */
  by: 'customer' | 'cashier';
  kind: 'preset' | 'custom' | 'none' | 'skipped';
  tipCents: number;
  percent?: number;
};

export type CustomerReceiptChoiceView = {
  choice: 'print' | 'email' | 'none';
  /** `printed` / `not-printed` (no printer, out of paper…), `email-queued`, `email-not-set-up`, `none`. */
  result: 'printed' | 'not-printed' | 'email-queued' | 'email-failed' | 'email-not-set-up' | 'none';
};

export type CustomerDisplayView = {
  /** `idle`: welcome; `ticket`: a sale under way; `thanks`: the sale is paid. */
  phase: 'idle' | 'ticket' | 'thanks';
  storeName: string;
  /**
   * The store's locale and currency: the display starts in the store's language (the customer may choose
   * another) and shows amounts in the store's currency.
   */
  locale?: StoreLocaleView;
  /** Customer displays attached now: with one, the customer chooses the tip (the cashier's screen waits). */
  displays: number;
  ticket?: CustomerTicketView;
  ask?: CustomerAsk;
  prompt?: CustomerPromptView;
  outcome?: CustomerOutcomeView;
  tipChoice?: CustomerTipChoiceView;
  receiptChoice?: CustomerReceiptChoiceView;
  /** Grows with every change, so a display that re-reads after a reload keeps the newest. */
  version: number;
};

/** What `customerDisplay.askTip` resolves with once the tip is settled or the cashier stopped the ask. */
export type TipAskOutcome = {
  outcome: 'chosen' | 'skipped' | 'cancelled';
  ticket: TicketView;
  tipChoice?: CustomerTipChoiceView;
};

export const CustomerTipChoiceSchema = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('preset'),
      percent: Type.Number({ minimum: 0, maximum: 100, problem: 'Choose one of the tips shown.' }),
    }),
    Type.Object({
      kind: Type.Literal('custom'),
      tipCents: Cents({ minimum: 0, problem: 'The tip must be zero or a positive number of cents.' }),
    }),
    Type.Object({ kind: Type.Literal('none') }),
  ],
  { problem: 'Choose a tip, a custom amount or no tip.' },
);
export type CustomerTipChoice = Static<typeof CustomerTipChoiceSchema>;

/** A signature drawn on the customer display (strokes in CSS pixels of its box); the pad stays the cashier's. */
export const CustomerSignatureSchema = Type.Object(
  {
    source: Type.Literal('screen'),
    width: Type.Number(),
    height: Type.Number(),
    strokes: Type.Array(Type.Array(Type.Object({ x: Type.Number(), y: Type.Number(), t: Type.Number() }))),
  },
  { problem: 'The signature is strokes drawn in a box.' },
);

export const CustomerReceiptChoiceSchema = Type.Enum(['print', 'email', 'none'], {
  problem: 'Choose print, email or no receipt.',
});

export const customerCommandPayloads = {
  /** The display's state now (a display that opens or reloads re-attaches with it). */
  'customer.view': Type.Object({}),
  /** The customer's tip, while the core asks for it. */
  'customer.tip': Type.Object({ ticketId: TicketIdSchema, choice: CustomerTipChoiceSchema }),
  /** The customer's signature, while one is owed. First capture wins (pad, cashier's box or this). */
  'customer.signature': Type.Object({
    ticketId: TicketIdSchema,
    tenderId: Text(64, 'tenderId'),
    signature: CustomerSignatureSchema,
  }),
  /** The receipt the customer wants once the sale is paid; `email` carries the address typed. */
  'customer.receipt': Type.Object({
    ticketId: TicketIdSchema,
    choice: CustomerReceiptChoiceSchema,
    email: Type.Optional(
      Type.String({ maxLength: 254, problem: 'An email address is at most 254 characters.' }),
    ),
    /** The language the customer display speaks: an emailed receipt is in it. */
    language: Type.Optional(
      Type.Enum([...LANGUAGES], { problem: 'A receipt is in English (en) or Spanish (es).' }),
    ),
  }),
  /** The cashier's screen: what the customer display shows now. */
  'customerDisplay.get': Type.Object({}),
  /** The cashier's screen: an address (with its own one-time launch token) for a customer display window. */
  'customerDisplay.launch': Type.Object({}),
  /**
   * The cashier's screen: asks the customer for the tip on the customer display; resolves when the customer
   * chose, or the cashier skipped (no tip) or cancelled the ask.
   */
  'customerDisplay.askTip': Type.Object({ ticketId: TicketIdSchema }),
  /** The cashier ends the tip ask: `skip` goes on with no tip, `cancel` goes back to the tender choice. */
  'customerDisplay.endTipAsk': Type.Object({
    ticketId: TicketIdSchema,
    action: Type.Enum(['skip', 'cancel'], { problem: 'The action is skip or cancel.' }),
  }),
};

export type CustomerCommandValues = {
  'customer.view': CustomerDisplayView;
  'customer.tip': CustomerDisplayView;
  'customer.signature': CustomerDisplayView;
  'customer.receipt': CustomerDisplayView;
  'customerDisplay.get': CustomerDisplayView;
  'customerDisplay.launch': { url: string };
  'customerDisplay.askTip': TipAskOutcome;
  'customerDisplay.endTipAsk': CustomerDisplayView;
};
