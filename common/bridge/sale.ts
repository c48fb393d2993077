import { Type, type Static } from 'typebox';
import { Cents, Text } from './schema-kit';
import type { ItemizedTicketView } from './ticket';

/**
 * How the card reaches the terminal. `present` = "Insert, tap or swipe": the first of the card reader
 * and the chip/contactless reader wins. `keyed` = the cashier types the number (card not present at
 * the reader, e.g. damaged stripe).
 */
export const CardEntrySchema = Type.Enum(['present', 'swipe', 'chip', 'contactless', 'keyed'], {
  problem: 'The card entry is present, swipe, chip, contactless or keyed.',
});
export type CardEntry = Static<typeof CardEntrySchema>;

/** Keyed card data. Sent to the gateway only; never logged, journaled or returned. */
export const KeyedCardSchema = Type.Object(
  {
    cardNumber: Type.String(),
    /** MMYY. */
    expiry: Type.String(),
    cvn: Type.Optional(Type.String()),
    zip: Type.Optional(Type.String()),
    street: Type.Optional(Type.String()),
  },
  { problem: 'Keyed entry needs the card number and expiry (MMYY).' },
);
export type KeyedCard = Static<typeof KeyedCardSchema>;

export const CheckDetailsSchema = Type.Object(
  {
    routingNumber: Type.String(),
    accountNumber: Type.String(),
    checkNumber: Type.String(),
    accountType: Type.Enum(['CHECKING', 'SAVING']),
    firstName: Type.Optional(Type.String()),
    lastName: Type.Optional(Type.String()),
    dlNumber: Type.Optional(Type.String()),
    dlState: Type.Optional(Type.String()),
    phone: Type.Optional(Type.String()),
  },
  { problem: 'The check needs its routing, account and check numbers and the account type.' },
);
export type CheckDetails = Static<typeof CheckDetailsSchema>;

export const EbtProgramSchema = Type.Enum(['food', 'cash'], { problem: 'Choose EBT food or cash.' });
export type EbtProgram = Static<typeof EbtProgramSchema>;

/** A gift card typed in: its number (12 to 19 digits, checked where it is read). */
export const KeyedGiftCardSchema = Type.Object({ cardNumber: Type.String() });
export const GiftEntrySchema = Type.Enum(['swipe', 'keyed']);

/** One way of paying part or all of a ticket. */
export const TenderRequestSchema = Type.Union(
  [
    Type.Object({
      kind: Type.Literal('credit'),
      entry: CardEntrySchema,
      keyed: Type.Optional(KeyedCardSchema),
    }),
    /** PIN debit: the card is read, the customer enters the PIN on the pad. */
    Type.Object({
      kind: Type.Literal('debit'),
      entry: Type.Optional(Type.Enum(['present', 'swipe', 'chip', 'contactless'])),
      cashBackCents: Type.Optional(
        Cents({ minimum: 0, problem: 'Cash back must be zero or a positive number of cents.' }),
      ),
    }),
    Type.Object({
      kind: Type.Literal('ebt'),
      program: EbtProgramSchema,
      entry: Type.Optional(Type.Enum(['present', 'swipe'])),
    }),
    Type.Object({
      kind: Type.Literal('gift'),
      entry: Type.Optional(GiftEntrySchema),
      keyed: Type.Optional(KeyedGiftCardSchema),
    }),
    Type.Object({ kind: Type.Literal('check'), check: CheckDetailsSchema }),
    /** Card on file: a vault token from the gateway (SaleWithToken). */
    Type.Object({
      kind: Type.Literal('token'),
      token: Type.String({ minLength: 1, maxLength: 128, problem: 'Choose a card on file.' }),
    }),
    /**
     * Cash is recorded locally (no gateway); `tenderedCents` >= amount gives change. Change of more than
     * the largest bill over the amount due (common/cash-change.ts) is refused unless `confirmLargeChange`:
     * the cashier confirmed the cash handed over.
     */
    Type.Object({
      kind: Type.Literal('cash'),
      tenderedCents: Cents({ exclusiveMinimum: 0, problem: 'Enter the cash the customer handed over.' }),
      confirmLargeChange: Type.Optional(Type.Boolean()),
    }),
    /** Pre-authorization (hold); completed later with `preauth.complete`. */
    Type.Object({
      kind: Type.Literal('preauth'),
      entry: CardEntrySchema,
      keyed: Type.Optional(KeyedCardSchema),
    }),
  ],
  { problem: 'Choose a tender.' },
);
export type TenderRequest = Static<typeof TenderRequestSchema>;

export type TenderKind = TenderRequest['kind'];

/** The steps a tender goes through; `prompt` in SaleProgress is the words to show. */
export type SaleStep =
  | 'waiting-for-card' // "Insert, tap or swipe"
  | 'reading-card' // "Reading card…"
  | 'pin-entry' // "Customer entering PIN"
  | 'authorizing' // "Authorizing…"
  | 'remove-card' // "Remove card"
  | 'signature' // "Sign here"
  | 'printing' // "Printing receipt…"
  | 'reversing' // "Do not retry — the terminal is reversing this sale"
  | 'done';

export type TenderStatus =
  | 'in-progress'
  | 'approved'
  | 'partial' // approved for less than asked: the rest needs another tender
  | 'declined'
  | 'cancelled'
  | 'unknown' // no answer: being reversed, do not retry
  | 'reversed'
  | 'offline-refused' // gateway unreachable and store-and-forward not allowed
  | 'stored' // accepted offline under store-and-forward, forwarded when the gateway returns
  | 'voided';

/**
 * Why a chip card did not confirm the issuer's approval, which is then reversed (EMV 4.4 Book 4 §6.3.8):
 * the card answered AAC, was pulled out before it answered, or never answered.
 */
export type CardRefusal = 'declined-by-card' | 'card-removed' | 'card-not-answering';

export type CardSummary = {
  /** First six / last four. */
  maskedPan?: string;
  last4?: string;
  /** Visa, Mastercard, Amex, Discover, Gift, EBT, … as the gateway or the BIN says. */
  cardType?: string;
  entry?: CardEntry;
  cardholderName?: string;
};

export type TenderView = {
  tenderId: string;
  kind: TenderKind;
  status: TenderStatus;
  /** What was asked of this tender. */
  requestedCents: number;
  /** What was approved (partial approvals: less than requested). */
  approvedCents: number;
  tipCents: number;
  cashBackCents: number;
  /** Cash: change due. */
  changeCents?: number;
  card?: CardSummary;
  authCode?: string;
  /** Gateway id of the payment (refunds and voids use it). */
  serviceReferenceNumber?: string;
  userTransactionNumber?: string;
  /** Gift and EBT: remaining balance reported by the gateway. */
  balanceCents?: number;
  /** Plain words for the cashier: decline reason and what to try next, or the unknown-outcome warning. */
  message?: string;
  gatewayCode?: number;
  /** A decline's reason when gatewayCode is 3 (the DeclineCode table of docs/response-codes.md). */
  declineCode?: number;
  /** A chip sale the issuer approved and the card did not confirm: reversed, and why. */
  cardRefusal?: CardRefusal;
  signature?: { required: boolean; captured: boolean; svg?: string };
  at: number;
};

/**
 * The lane's own sale settings, as the sale screen needs them: read from the lane, never from the gateway,
 * so a lane that lost its link still shows the tax it will charge.
 */
export type SaleSettingsView = {
  taxRatePercent: number;
  tipPrompt: boolean;
  tipPresetsPercent: number[];
  /** The sale screen asks the cashier to confirm an amount above this before any tender starts. */
  confirmAboveCents: number;
  /** Failed chip reads in one card wait before a chip card's swipe is taken (the manager's Settings). */
  chipFallbackAfterFailures: number;
};

export type TicketStatus = 'open' | 'paid' | 'abandoned';

export type TicketView = {
  ticketId: string;
  status: TicketStatus;
  subtotalCents: number;
  taxCents: number;
  tipCents: number;
  /** subtotal + tax + tip. Cash back is not part of the ticket total. */
  totalCents: number;
  paidCents: number;
  remainingCents: number;
  tenders: TenderView[];
  invoiceNumber?: string;
  /** Set for a ticket opened to pay for a gift card load. */
  purpose?: 'gift-reload';
  /** The load of a `gift-reload` ticket, once tried. */
  giftReload?: GiftReloadView;
  /**
   * A ticket of lines (`ticket.open`): its lines, discounts and pricing. Its subtotal is then the pricing's
   * net (before tax) and its tax every class's tax, so subtotal + tax is the pricing's total.
   */
  itemized?: ItemizedTicketView;
  openedAt: number;
  closedAt?: number;
  /** The employee who opened the ticket. */
  employeeId?: number;
  employeeName?: string;
};

/**
 * What a ticket is for. `gift-reload`: the payment for loading a gift card — no tax, no tip, paid by a
 * real payment (not a pre-authorization, not gift value); once paid, `gift.reload { ticketId }` loads it.
 */
export const TicketPurposeSchema = Type.Enum(['sale', 'gift-reload'], {
  problem: 'A ticket is for a sale or a gift card load.',
});
export type TicketPurpose = Static<typeof TicketPurposeSchema>;

/** The load a `gift-reload` ticket paid for. */
export type GiftReloadView = {
  /** `loaded`: the gateway approved it; `failed`: refused, load again; `unknown`: no answer, being reversed. */
  state: 'loaded' | 'failed' | 'unknown';
  amountCents: number;
  userTransactionNumber?: string;
  last4?: string;
  message?: string;
};

const taxAndTip = 'Tax and tip must be zero or a positive number of cents.';
export const TipSchema = Cents({
  minimum: 0,
  problem: 'The tip must be zero or a positive number of cents.',
});
export const PositiveAmountSchema = Cents({
  exclusiveMinimum: 0,
  problem: 'The amount must be a positive number of cents.',
});

export const SaleOpenRequestSchema = Type.Object({
  subtotalCents: PositiveAmountSchema,
  /** Default `sale`. */
  purpose: Type.Optional(TicketPurposeSchema),
  /** Omit to let the core apply the merchant's tax rate from settings. */
  taxCents: Type.Optional(Cents({ minimum: 0, problem: taxAndTip })),
  tipCents: Type.Optional(Cents({ minimum: 0, problem: taxAndTip })),
  invoiceNumber: Type.Optional(
    Type.String({ maxLength: 64, problem: 'The invoice number is at most 64 characters.' }),
  ),
});
export type SaleOpenRequest = Static<typeof SaleOpenRequestSchema>;

export const TicketIdSchema = Text(64, 'ticketId');

export const SalePayRequestSchema = Type.Object({
  ticketId: TicketIdSchema,
  tender: TenderRequestSchema,
  /** Omit to pay the remaining balance. */
  amountCents: Type.Optional(PositiveAmountSchema),
  /** Tip on this tender (credit: added to the authorization). */
  tipCents: Type.Optional(TipSchema),
  /**
   * The cashier confirmed a repeat of the same card and amount within the duplicate window (the gateway
   * refused it with code 410 first).
   */
  allowDuplicate: Type.Optional(Type.Boolean()),
});
export type SalePayRequest = Static<typeof SalePayRequestSchema>;

/** What `sale.pay` resolves with once the tender is finished (approved, declined, unknown…). */
export type SaleOutcome = {
  ticket: TicketView;
  tender: TenderView;
  /** True when the rest of the ticket still needs paying (partial approval or a split). */
  needsAnotherTender: boolean;
  /** True when a signature must be captured before the ticket can finish (see `sale.signature`). */
  signatureRequired: boolean;
};

export type SaleProgress = {
  ticketId: string;
  tenderId: string;
  step: SaleStep;
  /** The words for the screen, e.g. "Insert, tap or swipe", "Customer entering PIN", "Sign here". */
  prompt: string;
  /** Seconds until the device gives up, when it has a timeout. */
  timeoutSeconds?: number;
};

/**
 * The tender the lane is running now (`sale.live`), for a window that opens or reloads while it runs: it
 * shows the prompt, the countdown and Cancel, then takes the outcome from `sale.updated`.
 */
export type LiveTenderView = {
  ticket: TicketView;
  tenderId: string;
  /** The current prompt; its `timeoutSeconds` is what is left of the wait now, not when it began. */
  progress: SaleProgress | null;
};

export const SignatureInputSchema = Type.Union(
  [
    /** Captured on the terminal's screen (no signature pad): strokes in CSS pixels of a box. */
    Type.Object({
      source: Type.Literal('screen'),
      width: Type.Number(),
      height: Type.Number(),
      strokes: Type.Array(Type.Array(Type.Object({ x: Type.Number(), y: Type.Number(), t: Type.Number() }))),
    }),
    /** Finish the capture running on the signature pad. */
    Type.Object({ source: Type.Literal('pad') }),
  ],
  { problem: 'Unknown signature source.' },
);
export type SignatureInput = Static<typeof SignatureInputSchema>;
