import { Type, type Static } from 'typebox';
import { Int32, Money, StringEnum, Text, withBase, withEnvelope } from './common';

export const PosCodeValues = ['ECommerce', 'Moto', 'RecurringBilling', 'Retail'] as const;
export const PosEntryModeValues = [
  'KeyEntered',
  'NetworkAContactless',
  'CredentialOnFile',
  'Contactless',
  'Swiped',
  'NetworkADigitalWallet',
  'Chip',
  'ChipFallbackSwipe',
  'ChipFallbackManual',
] as const;
export type PosEntryMode = (typeof PosEntryModeValues)[number];

export const TransactionType = {
  CREDIT: 1,
  CREDIT_WITH_TOKEN: 2,
  Pre_Authorization: 3,
  Pre_Authorization_Completion: 4,
  SaleDebit: 5,
  EBT: 6,
  GIFTCARD: 7,
} as const;

/** Level 2 commercial-card data; the interface does not list its fields, so these are the usual three. */
export const PurchaseCardLevel2 = Type.Object({
  CustomerReference: Type.Optional(Text(25)),
  TaxAmount: Type.Optional(Money()),
  DestinationZip: Type.Optional(Text(10)),
});

/** The amounts a sale adds to its base Amount, and its currency: the same fields on card and wallet sales. */
export const saleTotalProperties = {
  CardDifferenceAmount: Type.Optional(Money()),
  SurchargeAmount: Type.Optional(Money()),
  TaxAmount: Type.Optional(Money()),
  TipAmount: Type.Optional(Money()),
  CurrencyCode: Type.Optional(Text(3)),
};

/** Card sale request fields, shared by credit, gift card, debit, EBT, token and the other sales. */
export const cardSaleProperties = {
  Amount: Money('transaction amount (base), JSON number'),
  TransactionType: Int32({ description: 'see the TransactionType enumeration' }),
  UserTransactionNumber: Text(64, { description: "caller's reference; unique per merchant" }),
  CardNumber: Type.Optional(Text(19)),
  ExpDate: Type.Optional(Text(5, { description: 'MMYY' })),
  CVN: Type.Optional(Text(4)),
  Track2: Type.Optional(Text(120, { description: 'track data (track 2, or track 1 and 2 as read)' })),
  NameOnCard: Type.Optional(Text(64)),
  Street: Type.Optional(Text(128)),
  ZipCode: Type.Optional(Text(16)),
  ...saleTotalProperties,
  CustomerAddress: Type.Optional(Text(255)),
  CustomerCity: Type.Optional(Text(64)),
  CustomerCountry: Type.Optional(Text(64)),
  CustomerEmail: Type.Optional(Text(254)),
  CustomerPhone: Type.Optional(Text(32)),
  CustomerState: Type.Optional(Text(64)),
  CustomerId: Type.Optional(Int32()),
  SaveCustomer: Type.Optional(Type.Boolean()),
  SaveToken: Type.Optional(Type.Boolean()),
  DigWltProgType: Type.Optional(Text(32)),
  DigWltToken: Type.Optional(Text(4096)),
  EmvData: Type.Optional(Text(4096, { description: 'EMV TLV hex from a chip or contactless read' })),
  ForceDuplication: Type.Optional(Type.Boolean()),
  InvoiceNumber: Type.Optional(Text(64)),
  OrderReference: Type.Optional(Text(64)),
  PaymentLinkId: Type.Optional(Text(64)),
  PosCode: Type.Optional(StringEnum(PosCodeValues)),
  PosEntryMode: Type.Optional(StringEnum(PosEntryModeValues)),
  PurchaseCardLevel2: Type.Optional(PurchaseCardLevel2),
  SURI: Type.Optional(Text(64)),
  SecureData: Type.Optional(Text(4096)),
  SecureTransactionId: Type.Optional(Text(128)),
};

export const pinProperties = {
  CashBackAmount: Type.Optional(Money('cash back')),
  KSN: Type.Optional(Text(20, { description: 'PIN pad key serial number (hex)' })),
  PinBlock: Type.Optional(Text(32, { description: 'encrypted PIN block (hex)' })),
};

export const CardSaleRequest = withEnvelope(cardSaleProperties);
export type CardSaleRequest = Static<typeof CardSaleRequest>;

/**
 * ProcessPreauth: the card sale fields, TransactionType 3 implied when absent (the published Android
 * client sends none) and IsClosable (true: completed later by ClosePreauth, the only kind offered here).
 */
export const PreauthRequest = withEnvelope({
  ...cardSaleProperties,
  TransactionType: Type.Optional(Int32({ description: '3 (Pre_Authorization); implied when absent' })),
  IsClosable: Type.Optional(
    Type.Boolean({
      description: 'true (default): the hold is completed by ClosePreauth; false is not offered (26)',
    }),
  ),
});
export type PreauthRequest = Static<typeof PreauthRequest>;

export const DebitSaleRequest = withEnvelope({ ...cardSaleProperties, ...pinProperties });
export type DebitSaleRequest = Static<typeof DebitSaleRequest>;

export const TokenSaleRequest = withEnvelope({
  ...cardSaleProperties,
  Token: Text(128, { description: 'vault token; its absence is code 3' }),
  Comments: Type.Optional(Text(255)),
  ExpDate: Type.Optional(Text(5, { description: 'MMYY or MM/YY; the stored expiry is used when valid' })),
});
export type TokenSaleRequest = Static<typeof TokenSaleRequest>;

export const PaymentPlanInfo = Type.Object({
  Description: Type.String(),
  DisplayName: Type.Boolean(),
  MonthlyFee: Type.Number(),
  NonSwipeDiscount: Type.Number(),
  NonSwipeTransactionFee: Type.Number(),
  PlanId: Int32(),
  PlanName: Type.String(),
  SwipeDiscount: Type.Number(),
  SwipeTransactionFee: Type.Number(),
});

export const saleResponseProperties = {
  Amount: Type.Optional(Type.Number()),
  AppliedSurchargeAmount: Type.Optional(Type.Number()),
  CardDifferenceAmount: Type.Optional(Type.Number()),
  SurchargeAmount: Type.Optional(Type.Number()),
  TaxAmount: Type.Optional(Type.Number()),
  TipAmount: Type.Optional(Type.Number()),
  CashBackAmount: Type.Optional(Type.Number()),
  AuthorizationNumber: Type.Optional(Type.String()),
  CardType: Type.Optional(Type.String()),
  LastFour: Type.Optional(Type.String()),
  ServiceReferenceNumber: Type.Optional(Type.String()),
  UserTransactionNumber: Type.Optional(Type.String()),
  EmvData: Type.Optional(Type.String()),
  Balance: Type.Optional(Type.String()),
  CustomerId: Type.Optional(Int32()),
  Token: Type.Optional(
    Type.String({ description: 'vault token, when SaveToken was true and the sale succeeded' }),
  ),
  AvsResult: Type.Optional(Type.String()),
  CvnResult: Type.Optional(Type.String()),
  PaymentPlanInfo: Type.Optional(PaymentPlanInfo),
};

export const SaleResponse = withBase(saleResponseProperties);
export type SaleResponse = Static<typeof SaleResponse>;

const { TipAmount: _omitTip, ...fullRefundBase } = saleResponseProperties;
/** The full-refund response adds RefundedAmount and omits TipAmount. */
export const FullRefundResponse = withBase({
  ...fullRefundBase,
  RefundedAmount: Type.Optional(Type.Number()),
});
export type FullRefundResponse = Static<typeof FullRefundResponse>;
