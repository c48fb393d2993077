import { Type, type Static } from 'typebox';
import { Cents } from './schema-kit';
import type { MoneyFigures } from '../money-figures';
import type { TotalsLine } from './batch';
import type { ReturnFiguresView } from './returns';

// Reports

export type ReportRow = {
  serviceReferenceNumber: string;
  userTransactionNumber: string;
  type: string;
  status: string;
  amountCents: number;
  totalCents: number;
  tipCents: number;
  refundedCents: number;
  cardType: string;
  last4: string;
  authCode: string;
  batchNumber?: string;
  madeOn: string;
};

export const ReportQuerySchema = Type.Object({
  from: Type.Optional(Type.String()),
  to: Type.Optional(Type.String()),
});
export type ReportQuery = Static<typeof ReportQuerySchema>;

/** The lane's money figures (common/money-figures.ts) over a report's range, from its journal. */
export type ReportFigures = {
  from?: number;
  to?: number;
  figures: MoneyFigures;
  /** The returns of sales in the range, by the tender their money went back to (returns/). */
  returns?: ReturnFiguresView;
};

export type ReportView = {
  rows: ReportRow[];
  /** 24 entries, local hour 0..23. */
  salesByHour: { hour: number; count: number; amountCents: number }[];
  cardMix: TotalsLine[];
  refunds: { count: number; amountCents: number };
  /** The rows as CSV (header line first). */
  csv: string;
};

// Merchant passthroughs: business settings, fraud auto-deny, payment links

export type BusinessSettingsView = {
  surchargeEnabled: boolean;
  surchargePercent: number;
  cardDifferenceEnabled: boolean;
  cardDifferencePercent: number;
  threeDSecureEnabled: boolean;
  /** The lane's own sale settings (kept by the terminal). */
  taxRatePercent: number;
  tipPrompt: boolean;
  tipPresetsPercent: number[];
  /** A pre-authorization completion's tip above this share of the hold needs a manager (default 20). */
  preauthTipMaxPercent?: number;
  /**
   * How many times a chip card's chip must fail in one card wait before its swipe is taken (as
   * ChipFallbackSwipe); until then the swipe is refused with "insert the card". Default 1.
   */
  chipFallbackAfterFailures?: number;
  /**
   * The sale screen asks the cashier to confirm an amount above this before any tender starts (a scan or
   * a slip of the finger is not a sale). Default 1,000.00.
   */
  confirmAboveCents?: number;
};

export const BusinessSettingsUpdateSchema = Type.Object({
  /** 0 to 30 %, at most four decimals (the handler checks the decimals: common/percent's isExactRate). */
  taxRatePercent: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 30,
      problem: 'The tax rate is 0 to 30 %, with at most four decimals.',
    }),
  ),
  tipPrompt: Type.Optional(Type.Boolean()),
  tipPresetsPercent: Type.Optional(
    Type.Array(Type.Number({ minimum: 0, maximum: 100 }), {
      maxItems: 6,
      problem: 'Tip presets are up to six percentages.',
    }),
  ),
  preauthTipMaxPercent: Type.Optional(
    Type.Number({ minimum: 0, maximum: 100, problem: 'The pre-authorization tip share is 0 to 100 %.' }),
  ),
  /** 1 to 3: more than three failed inserts only holds the line (the networks count fallback attempts). */
  chipFallbackAfterFailures: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3,
      problem: 'Chip fallback is allowed after 1 to 3 failed chip reads.',
    }),
  ),
  confirmAboveCents: Type.Optional(
    Cents({
      minimum: 100,
      problem: 'Confirm amounts above 1.00 or more.',
    }),
  ),
});
export type BusinessSettingsUpdate = Static<typeof BusinessSettingsUpdateSchema>;

export const FraudCheckSchema = Type.Enum(['account', 'address', 'cvv', 'zipCode'], {
  problem: 'The fraud check is account, address, cvv or zipCode.',
});
export type FraudCheck = Static<typeof FraudCheckSchema>;

export type FraudOptionsView = { enabled: FraudCheck[]; known: boolean };

export type PaymentLinkView = {
  id: string;
  link: string;
  amountCents?: number;
  description?: string;
  status: string;
  active: boolean;
  createdOn?: string;
};

export const PaymentLinkCreateSchema = Type.Object({
  amountCents: Type.Optional(
    Cents({
      exclusiveMinimum: 0,
      problem: 'A link amount is a positive number of cents (or none for an open amount).',
    }),
  ),
  description: Type.Optional(Type.String()),
  invoiceNumber: Type.Optional(Type.String()),
});
export type PaymentLinkCreate = Static<typeof PaymentLinkCreateSchema>;
