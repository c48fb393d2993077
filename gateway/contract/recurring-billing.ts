import { Type, type Static, type TSchema } from 'typebox';
import { DateTime, Int32, Money, StringEnum, Text, withBase, withEnvelope } from './common';
import { endpoint } from './endpoint';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const percent = (what: string) =>
  Type.Number({ description: `${what} in percent of each charge, 0 to 100, at most two decimals` });

export const RecurringBillingCreateRequest = withEnvelope({
  Amount: Money('base amount of each charge (of each installment for an installment plan)'),
  FrequencyId: Int32({ description: 'see the FrequencyId table: 1 daily … 7 annual' }),
  InstallmentTotal: Int32({
    description: 'number of installments when IsInstallment is true (1 to 999); ignored otherwise',
  }),
  IsInstallment: Type.Boolean({ description: 'true: stop after InstallmentTotal approved charges' }),
  StartDate: DateTime('first due date (its calendar date as written); today or later'),
  Account: Type.Optional(Text(19, { description: 'card number, stored in the vault (never in clear)' })),
  CardHolderName: Type.Optional(Text(64)),
  City: Type.Optional(Text(64)),
  CustomerId: Type.Optional(Text(64, { description: "the merchant's own customer reference" })),
  CustomerZipCode: Type.Optional(Text(16)),
  Cv: Type.Optional(Text(4, { description: 'checked for shape only; a security code is never stored' })),
  Description: Type.Optional(Text(255)),
  Email: Type.Optional(Text(254)),
  ExpDate: Type.Optional(Text(5, { description: 'MMYY (or MM/YY) of Account' })),
  FirstName: Type.Optional(Text(64)),
  LastName: Type.Optional(Text(64)),
  Phone: Type.Optional(Text(32)),
  SecureData: Type.Optional(Text(4096)),
  SecureTransactionId: Type.Optional(Text(128)),
  State: Type.Optional(Text(64)),
  Street: Type.Optional(Text(128)),
  TransactionId: Type.Optional(
    Text(64, {
      description:
        'ServiceReferenceNumber of an earlier sale that saved its card (SaveToken): the card to bill',
    }),
  ),
  ZipCode: Type.Optional(Text(16)),
  CardDifferencePercent: Type.Optional(percent('card difference')),
  SurchargePercent: Type.Optional(percent('surcharge')),
  TaxPercent: Type.Optional(percent('tax')),
  CardTokenId: Type.Optional(Int32({ description: 'CardTokenId of a stored card of the merchant' })),
  Token: Type.Optional(Text(128, { description: 'or a vault token (SaveToken, GetTokenForCard)' })),
  MerchantId: Type.Optional(Int32({ description: 'when sent, must be the envelope mid' })),
  SelectedCustomerId: Type.Optional(Int32({ description: 'Id of an existing customer of the merchant' })),
  EndDate: Type.Optional(DateTime('last date a charge may fall on')),
});
export type RecurringBillingCreateRequest = Static<typeof RecurringBillingCreateRequest>;

export const RecurringBillingEditRequest = withEnvelope({
  Id: Type.Optional(Int32({ description: 'the billing to edit (required in practice)' })),
  FrequencyId: Type.Optional(Int32()),
  Amount: Type.Optional(Money('new base amount of the next charges')),
  Description: Type.Optional(Text(255)),
  NextPaymentDate: Type.Optional(DateTime('moves the next charge (and those after) to this date')),
  RecurringEnd: Type.Optional(DateTime('new end date')),
  RecurringStart: Type.Optional(DateTime('new start date, only before the first charge')),
});
export type RecurringBillingEditRequest = Static<typeof RecurringBillingEditRequest>;

export const BillingIdRequest = withEnvelope({
  BillingId: Type.Optional(Int32()),
  IncludeInactive: Type.Optional(
    Type.Boolean({ description: 'GetAll only: also list completed, deactivated and suspended billings' }),
  ),
});
export type BillingIdRequest = Static<typeof BillingIdRequest>;

export const BillingStatusValues = ['active', 'completed', 'deactivated', 'suspended'] as const;

/** The interface's billing record, plus the schedule state a client needs (documented as extensions). */
export const RecurringBillingRecord = Type.Object({
  Id: Int32(),
  AddedOn: Type.String({ format: 'date-time' }),
  LastModifiedOn: Type.String({ format: 'date-time' }),
  Amount: Type.Number(),
  AmountCollectedSoFar: Type.Number({ description: 'total of the approved charges, exact to the cent' }),
  CardType: Type.String(),
  City: Type.String(),
  Description: Type.String(),
  Email: Type.String(),
  EndDate: Type.String({ description: 'YYYY-MM-DD, empty when open-ended' }),
  FirstName: Type.String(),
  Frequency: Type.String({ description: 'name of FrequencyId: Daily, Weekly, … Annual' }),
  LastFour: Type.String(),
  CustomerId: nullable(Int32()),
  InstallmentTotal: Int32(),
  IsInstallment: Type.Boolean(),
  FrequencyId: Int32(),
  LastName: Type.String(),
  StartDate: Type.String({ description: 'YYYY-MM-DD' }),
  NextPaymentDate: nullable(Type.String({ description: 'YYYY-MM-DD; null once the billing has ended' })),
  InstallmentsPaid: Int32(),
  Active: Type.Boolean(),
  Status: StringEnum(BillingStatusValues),
  CardTokenId: Int32(),
  PaymentLinkId: nullable(Type.String()),
  LastRunDate: nullable(Type.String()),
  LastServiceReferenceNumber: nullable(Type.String()),
  TaxPercent: Type.Number(),
  SurchargePercent: Type.Number(),
  CardDifferencePercent: Type.Number(),
});
export type RecurringBillingRecord = Static<typeof RecurringBillingRecord>;

export const RecurringBillingResponse = withBase({
  BillingId: Int32({ description: 'Create: the id of the new billing' }),
  Billing: RecurringBillingRecord,
});
export type RecurringBillingResponse = Static<typeof RecurringBillingResponse>;

export const RecurringBillingsResponse = withBase({ Billings: Type.Array(RecurringBillingRecord) });
export type RecurringBillingsResponse = Static<typeof RecurringBillingsResponse>;

export const EcommerceStatusValues = ['Open', 'Completed', 'Cancel', 'Confirm'] as const;

const walletMoney = (d: string) => Type.Optional(Money(`${d}, JSON number ≥ 0 with at most two decimals`));

export const MobileWalletTransactionRequest = withEnvelope({
  BusinessCustomerId: Type.Optional(Text(64)),
  DailyTransactionId: Type.Optional(Int32()),
  EcommerceId: Type.Optional(Text(64, { description: 'unique per merchant when sent' })),
  EcommerceStatus: Type.Optional(StringEnum(EcommerceStatusValues, 'Open by default')),
  Fee: walletMoney('fee'),
  Merchantid: Type.Optional(Int32({ description: 'when sent, must be the envelope mid' })),
  NetAmount: walletMoney('net amount'),
  ReferenceNumber: Type.Optional(Text(64)),
  SubTotal: walletMoney('subtotal'),
  Tax: walletMoney('tax'),
  Total: walletMoney('total'),
  TotalRefundedAmount: walletMoney('total refunded, at most Total'),
  TransactionDate: Type.Optional(DateTime()),
});
export type MobileWalletTransactionRequest = Static<typeof MobileWalletTransactionRequest>;

export const MobileWalletTransactionRecord = Type.Object({
  Id: Type.String({ description: 'UUID' }),
  Mid: Int32(),
  BusinessCustomerId: nullable(Type.String()),
  DailyTransactionId: nullable(Int32()),
  EcommerceId: nullable(Type.String()),
  EcommerceStatus: StringEnum(EcommerceStatusValues),
  Fee: nullable(Type.Number()),
  NetAmount: nullable(Type.Number()),
  ReferenceNumber: nullable(Type.String()),
  SubTotal: nullable(Type.Number()),
  Tax: nullable(Type.Number()),
  Total: nullable(Type.Number()),
  TotalRefundedAmount: nullable(Type.Number()),
  TransactionDate: nullable(Type.String({ format: 'date-time' })),
});
export type MobileWalletTransactionRecord = Static<typeof MobileWalletTransactionRecord>;

export const MobileWalletTransactionsResponse = withBase({
  Transactions: Type.Array(MobileWalletTransactionRecord),
});
export type MobileWalletTransactionsResponse = Static<typeof MobileWalletTransactionsResponse>;

const group = 'Recurring Billing';

export const recurringBillingEndpoints = {
  create: endpoint({
    method: 'POST',
    path: '/api/RecurringBilling/Create',
    group,
    summary:
      'Create a billing that charges a stored card every FrequencyId period from StartDate (installments stop after InstallmentTotal)',
    auth: 'envelope',
    body: RecurringBillingCreateRequest,
    response: RecurringBillingResponse,
  }),
  edit: endpoint({
    method: 'POST',
    path: '/api/RecurringBilling/Edit',
    group,
    summary: 'Change the amount, frequency, description or dates of an active billing',
    auth: 'envelope',
    body: RecurringBillingEditRequest,
    response: RecurringBillingResponse,
  }),
  deactivate: endpoint({
    method: 'POST',
    path: '/api/RecurringBilling/Deactivate',
    group,
    summary: 'Deactivate the billing BillingId: no further charge',
    auth: 'envelope',
    body: BillingIdRequest,
    response: RecurringBillingResponse,
  }),
  get: endpoint({
    method: 'POST',
    path: '/api/RecurringBilling/Get',
    group,
    summary: 'One active billing by BillingId',
    auth: 'envelope',
    body: BillingIdRequest,
    response: RecurringBillingResponse,
  }),
  getAll: endpoint({
    method: 'POST',
    path: '/api/RecurringBilling/GetAll',
    group,
    summary:
      "The merchant's active billings (BillingId narrows to one; IncludeInactive lists ended ones too)",
    auth: 'envelope',
    body: BillingIdRequest,
    response: RecurringBillingsResponse,
  }),
  mobileWalletList: endpoint({
    method: 'POST',
    path: '/api/MobileWalletTransaction',
    group,
    summary:
      "The merchant's mobile-wallet transactions; any field sent (EcommerceId, ReferenceNumber, EcommerceStatus…) filters them",
    auth: 'envelope',
    body: MobileWalletTransactionRequest,
    response: MobileWalletTransactionsResponse,
  }),
  mobileWalletCreate: endpoint({
    method: 'POST',
    path: '/api/MobileWalletTransaction/Create',
    group,
    summary: 'Store a mobile-wallet transaction; Transactions holds the stored record',
    auth: 'envelope',
    body: MobileWalletTransactionRequest,
    response: MobileWalletTransactionsResponse,
  }),
};
