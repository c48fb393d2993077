import { Type, type Static } from 'typebox';
import { DateTime, Int32, withBase, withEnvelope } from './common';

const nullableNumber = Type.Union([Type.Number(), Type.Null()]);

/** Transaction report record (Report group), with the interface's amount rules. */
export const TransactionReportRecord = Type.Object({
  ID: Int32(),
  MID: Int32(),
  CID: Int32(),
  ServiceReferenceNumber: Type.String(),
  UserTransactionNumber: Type.String(),
  TransactionType: Type.String(),
  Status: Type.String(),
  Amount: Type.Number({ description: 'the base amount' }),
  TaxAmount: Type.Number(),
  SurchargeAmount: Type.Number(),
  CardDifferenceAmount: Type.Number(),
  TipAmount: Type.Number(),
  CashBackAmount: Type.Number(),
  TotalAmount: Type.Number({
    description: 'base + tax + surcharge + card difference + tip; cash back excluded',
  }),
  RefundedAmount: Type.Union([Type.Number(), Type.Null()], {
    description: 'kept for compatibility: the remaining refundable balance after a refund, null before any',
  }),
  RemainingRefundableAmount: Type.Number(),
  TotalRefundedAmount: Type.Number(),
  AuthCode: Type.String(),
  BankAuthorizationNumber: Type.String(),
  BankMsg: Type.String(),
  GatewayMsg: Type.String(),
  CV_VerificationResult: Type.String(),
  CardType: Type.String(),
  CurrencyCode: Type.String(),
  LastFour: Type.String(),
  PlanId: Int32(),
  CardWasSwiped: Int32(),
  MadeOn: Type.String({ format: 'date-time' }),
  BatchNumber: Type.Union([Type.String(), Type.Null()]),
  OriginalServiceReferenceNumber: Type.Union([Type.String(), Type.Null()]),
  InvoiceNumber: Type.Union([Type.String(), Type.Null()]),
  IsTest: Type.Boolean(),
  PaymentLinkId: Type.Union([Type.String(), Type.Null()], {
    description: 'the payment link the sale paid (hosted checkout), null otherwise',
  }),
  Source: Type.Union([Type.String(), Type.Null()], {
    description: 'origin of the payment, e.g. RecurringBillingTask for a scheduled recurring charge',
  }),
});
export type TransactionReportRecord = Static<typeof TransactionReportRecord>;

export const TransactionsReportResponse = withBase({ Transactions: Type.Array(TransactionReportRecord) });
export type TransactionsReportResponse = Static<typeof TransactionsReportResponse>;

export const TransactionNumber = Type.String();

export const TransactionNumbersResponse = withBase({ UserReferenceNumbers: Type.Array(TransactionNumber) });
export type TransactionNumbersResponse = Static<typeof TransactionNumbersResponse>;

export const SettlementReport = Type.Object({
  AmountSettled: Type.Number(),
  Batches: Type.Array(Type.String()),
  CompletedOn: Type.String({ format: 'date-time' }),
});

export const SettlementReportsResponse = withBase({ SettlementReports: Type.Array(SettlementReport) });
export type SettlementReportsResponse = Static<typeof SettlementReportsResponse>;

export const SettlementsByDateRequest = withEnvelope({
  StartDate: Type.Optional(DateTime()),
  EndDate: Type.Optional(DateTime()),
});
export type SettlementsByDateRequest = Static<typeof SettlementsByDateRequest>;

const reportWindow = {
  StartDate: Type.Optional(
    DateTime(
      'optional: only transactions made at or after this instant (old clients send none: every transaction)',
    ),
  ),
  EndDate: Type.Optional(DateTime('optional: only transactions made at or before this instant')),
};

/**
 * GetReportByMerchant and GetReportByUserAndCashier: the envelope, and optional filters a client of years
 * of data sends to ask for less than everything (the answer is streamed either way).
 */
export const TransactionsReportRequest = withEnvelope({
  ...reportWindow,
  BatchNumber: Type.Optional(
    Type.String({ maxLength: 40, description: 'optional: only the transactions of this batch' }),
  ),
});
export type TransactionsReportRequest = Static<typeof TransactionsReportRequest>;

/** GetTransactionNumbers: the envelope and an optional window on when each number was used. */
export const TransactionNumbersRequest = withEnvelope(reportWindow);
export type TransactionNumbersRequest = Static<typeof TransactionNumbersRequest>;

export const UnsettledTransaction = Type.Object({
  id: Int32(),
  mid: Int32(),
  cid: Int32(),
  ServiceReferenceNumber: Type.String(),
  UserReferenceNumber: Type.String(),
  batch_number: Type.String(),
  SettlementResult: Int32({ description: '0 = pending settlement (open batch)' }),
  TimeSpan: Type.String({ format: 'date-time' }),
  Amount: Type.Number(),
});

export const UnsettledTransactionsResponse = withBase({
  UnsettledTransactions: Type.Array(UnsettledTransaction),
});
export type UnsettledTransactionsResponse = Static<typeof UnsettledTransactionsResponse>;

export { nullableNumber };
