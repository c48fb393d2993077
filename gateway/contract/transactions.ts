import { Type, type Static } from 'typebox';
import { Int32, Money, StringEnum, Text, withBase, withEnvelope } from './common';
import {
  PosCodeValues,
  PosEntryModeValues,
  cardSaleProperties,
  saleResponseProperties,
  saleTotalProperties,
} from './card-sale';

export const ClosePreauthRequest = withEnvelope({
  Amount: Money('final amount of the completion (base), at most the authorized amount'),
  ServiceReferenceNumber: Text(64, { description: 'the preauthorization to close' }),
  UserTransactionNumber: Text(64),
  AdditionalTip: Type.Optional(Money('tip added at completion')),
  CurrencyCode: Type.Optional(Text(3)),
});
export type ClosePreauthRequest = Static<typeof ClosePreauthRequest>;

const refundProperties = {
  ServiceTransactionNumber: Text(64, { description: 'the original transaction' }),
  Amount: Money('refund amount, applied exactly as sent'),
  UserTransactionNumber: Text(64, { description: 'new and unique for every refund' }),
  Account: Type.Optional(Text(19)),
  ExpDate: Type.Optional(Text(4)),
  SURI: Type.Optional(Text(64)),
  TrackData: Type.Optional(Text(120)),
};

export const RefundRequest = withEnvelope(refundProperties);
export type RefundRequest = Static<typeof RefundRequest>;

/**
 * DoFullRefund refunds the whole remaining balance (the transitions table). Amount may be left out; a sent
 * Amount must be a valid amount but does not change what is refunded — a shopping cart sends the order
 * total even after a partial refund — and RefundedAmount says what was.
 */
export const FullRefundRequest = withEnvelope({
  ...refundProperties,
  Amount: Type.Optional(
    Money('optional and informative: the whole remaining balance is refunded whatever valid Amount is sent'),
  ),
});
export type FullRefundRequest = Static<typeof FullRefundRequest>;

export const ReversalRequest = withEnvelope({
  UserTransactionNumber: Text(64, {
    description: 'the number sent with the original request that got no response',
  }),
});
export type ReversalRequest = Static<typeof ReversalRequest>;

export const VoidRequest = withEnvelope({
  ServiceTransactionNumber: Text(64, { description: 'the transaction to void' }),
  UserTransactionNumber: Text(64, { description: 'a new unique number for the void itself' }),
});
export type VoidRequest = Static<typeof VoidRequest>;

/** A voice-authorized sale: posted with the authorization number obtained by phone, not sent for authorization. */
export const ForceRetailSaleRequest = withEnvelope({
  ...cardSaleProperties,
  TransactionType: Type.Optional(Int32()),
  AuthorizationNumber: Text(12, { description: 'the voice authorization code' }),
});
export type ForceRetailSaleRequest = Static<typeof ForceRetailSaleRequest>;

const walletProperties = {
  Amount: Money(),
  UserTransactionNumber: Text(64),
  ...saleTotalProperties,
  CustomerEmail: Type.Optional(Text(254)),
  InvoiceNumber: Type.Optional(Text(64)),
  OrderReference: Type.Optional(Text(64)),
  PaymentLinkId: Type.Optional(Text(64)),
  SURI: Type.Optional(Text(64)),
  CustomerId: Type.Optional(Int32()),
  ForceDuplication: Type.Optional(Type.Boolean()),
};

export const WalletASaleRequest = withEnvelope({
  ...walletProperties,
  Token: Text(16384, { description: 'base64 of the wallet token JSON' }),
});
export type WalletASaleRequest = Static<typeof WalletASaleRequest>;

export const WalletBSaleRequest = withEnvelope({
  ...walletProperties,
  Token: Type.Optional(Text(16384, { description: 'encrypted wallet token (not a card number)' })),
  PosCode: Type.Optional(StringEnum(PosCodeValues)),
  PosEntryMode: Type.Optional(StringEnum(PosEntryModeValues)),
});
export type WalletBSaleRequest = Static<typeof WalletBSaleRequest>;

export const EnvelopeOnlyRequest = withEnvelope({});
export type EnvelopeOnlyRequest = Static<typeof EnvelopeOnlyRequest>;

export const SettledBatch = Type.Object({
  BatchNumber: Type.String(),
  TransactionCount: Int32(),
  SaleAmount: Type.Number(),
  ReturnAmount: Type.Number(),
  NetAmount: Type.Number(),
  OpenedOn: Type.String({ format: 'date-time' }),
  ClosedOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const SettlementResponse = withBase({
  AmountSettled: Type.Number(),
  Batches: Type.Array(SettledBatch),
  CompletedOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type SettlementResponse = Static<typeof SettlementResponse>;

export const TransactionLookupRequest = withEnvelope({
  UserTransactionNumber: Text(64, { description: 'the number the transaction was sent with' }),
});
export type TransactionLookupRequest = Static<typeof TransactionLookupRequest>;

export const TransactionStatusValues = [
  'Pending',
  'Approved',
  'Declined',
  'Failed',
  'Voided',
  'Reversed',
] as const;

/**
 * GetTransaction: the merchant's transaction in the sale-response shape plus its current state. Its
 * ResponseCode, verbiage and AuthorizationNumber say the transaction's standing, not the lookup's, so the
 * published clients' approval rule (200, or verbiage with APPROV, or an AuthorizationNumber) reads it
 * right: 200/210 approved and standing (refunds are their own transactions: the amounts below), 3
 * declined (with DeclineCode), 502/504 failed at the processor, 430 voided or reversed, 431 still at the
 * processor; 29 no such number, 30 none sent.
 */
export const TransactionLookupResponse = withBase({
  ...saleResponseProperties,
  TransactionStatus: StringEnum(TransactionStatusValues, 'the transaction as it stands now'),
  Operation: Type.String({
    description:
      'what the transaction was: Sale, ProcessPreauth, ClosePreauth, SaleDebit, SaleWithToken, Refund, …',
  }),
  TransactionType: Int32(),
  TransactionDate: Type.String({ format: 'date-time' }),
  TotalRefundedAmount: Type.Number({ description: 'refunded so far (cumulative)' }),
  RemainingRefundableAmount: Type.Number({ description: 'what can still be refunded' }),
  IsTest: Type.Boolean(),
});
export type TransactionLookupResponse = Static<typeof TransactionLookupResponse>;
