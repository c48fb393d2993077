import { Type, type Static, type TProperties, type TSchema } from 'typebox';
import { DateTime, Int32, StringEnum, Text, envelopeProperties, withBase, withEnvelope } from './common';
import { endpoint } from './endpoint';

export const PaymentLinkTypeValues = ['Open', 'Fixed'] as const;
export const PaymentLinkStatusValues = ['UnPaid', 'Paid'] as const;
export const ForcedPaymentMethodValues = [
  'Credit',
  'Check',
  'MobileWallet',
  'DeviceWalletB',
  'DeviceWalletA',
  'Debit',
] as const;
export const AllowedPaymentScheduleValues = [
  'OnlySingle',
  'OnlyRecurringOrInstallment',
  'SingleAndRecurringOrInstallment',
  'SingleAndRecurringOnly',
  'SingleAndInstallmentOnly',
  'OnlyRecurring',
  'OnlyInstallment',
] as const;
export const PaymentScheduleValues = ['Single', 'Recurring', 'Installment'] as const;

export type AllowedPaymentSchedule = (typeof AllowedPaymentScheduleValues)[number];
export type PaymentSchedule = (typeof PaymentScheduleValues)[number];
export type ForcedPaymentMethod = (typeof ForcedPaymentMethodValues)[number];

/** A string, or null/empty for "no amount": one JSON type error when it is anything else. */
const linkAmount = Type.Unsafe<string | null>({
  type: ['string', 'null'],
  maxLength: 32,
  description:
    'en-US currency text such as "12.50" or "1,234.50" (the one amount of the interface that is a string). Omitted, null or empty creates an Open link; a positive amount a Fixed link',
});

/**
 * What a client may send in `PaymentLink`. Server-set fields (CreatedOn, PaidOn, Status, Active, Link,
 * ServiceReferenceNumber…) are not inputs; like any unknown property they are ignored and never stored.
 */
export const PaymentLinkInput = Type.Object({
  Id: Type.Optional(
    Text(64, { description: 'UUID of the link (Disable, Edit and the operations defined here)' }),
  ),
  MerchantId: Type.Optional(
    Int32({ description: 'when sent, must be the envelope mid (ownership always follows the envelope)' }),
  ),
  Amount: Type.Optional(linkAmount),
  Description: Type.Optional(Text(500)),
  Type: Type.Optional(
    StringEnum(PaymentLinkTypeValues, 'ignored: Amount alone decides Open (no amount) or Fixed (positive)'),
  ),
  InvoiceNumber: Type.Optional(Text(64)),
  ForcedPaymentMethod: Type.Optional(StringEnum(ForcedPaymentMethodValues)),
  AllowRecurringPayment: Type.Optional(
    Type.Boolean({
      description: 'true without AllowedPaymentSchedule means SingleAndRecurringOrInstallment',
    }),
  ),
  AllowedPaymentSchedule: Type.Optional(StringEnum(AllowedPaymentScheduleValues)),
  PaymentSchedule: Type.Optional(
    StringEnum(PaymentScheduleValues, 'the schedule the checkout preselects; must be allowed'),
  ),
  IsOpenPaymentSchedule: Type.Optional(
    Type.Boolean({ description: 'true lets the payer choose the frequency and the number of installments' }),
  ),
  FrequencyId: Type.Optional(Int32({ description: 'see the FrequencyId table (docs/gateway-commerce.md)' })),
  StartDate: Type.Optional(DateTime('later charges of a recurring schedule start no earlier than this date')),
  EndDate: Type.Optional(DateTime('a recurring schedule charges no later than this date')),
  RecurringDescription: Type.Optional(Text(255)),
  InstallmentTotal: Type.Optional(Int32({ description: 'number of installments, 2 to 120' })),
});
export type PaymentLinkInput = Static<typeof PaymentLinkInput>;

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The service object as every Payment Links operation answers it. */
export const PaymentLinkRecord = Type.Object({
  Id: Type.String({ description: 'UUID generated on creation' }),
  MerchantId: Int32(),
  Amount: nullable(Type.String({ description: 'en-US currency text; null for an Open link' })),
  Description: Type.String(),
  Type: StringEnum(PaymentLinkTypeValues),
  CreatedOn: Type.String({ format: 'date-time' }),
  PaidOn: nullable(Type.String({ format: 'date-time' })),
  DisabledOn: nullable(Type.String({ format: 'date-time' })),
  Status: StringEnum(PaymentLinkStatusValues),
  Active: Type.Boolean(),
  ServiceReferenceNumber: nullable(Type.String()),
  InvoiceNumber: Type.String(),
  ForcedPaymentMethod: nullable(StringEnum(ForcedPaymentMethodValues)),
  Link: Type.String({ description: 'the hosted checkout page of the link' }),
  AllowRecurringPayment: Type.Boolean(),
  AllowedPaymentSchedule: StringEnum(AllowedPaymentScheduleValues),
  PaymentSchedule: StringEnum(PaymentScheduleValues),
  IsOpenPaymentSchedule: Type.Boolean(),
  FrequencyId: nullable(Int32()),
  StartDate: nullable(Type.String({ format: 'date-time' })),
  EndDate: nullable(Type.String({ format: 'date-time' })),
  RecurringDescription: Type.String(),
  InstallmentTotal: nullable(Int32()),
  RecurringBillingId: nullable(
    Int32({ description: 'the recurring billing the checkout created, when the payer chose one' }),
  ),
});
export type PaymentLinkRecord = Static<typeof PaymentLinkRecord>;

export const PaymentLinkRequest = withEnvelope({ PaymentLink: PaymentLinkInput });
export type PaymentLinkRequest = Static<typeof PaymentLinkRequest>;

export const PaymentLinkResponse = withBase({ PaymentLink: PaymentLinkRecord });
export type PaymentLinkResponse = Static<typeof PaymentLinkResponse>;

export const PaymentLinksResponse = withBase({ PaymentLinks: Type.Array(PaymentLinkRecord) });
export type PaymentLinksResponse = Static<typeof PaymentLinksResponse>;

const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

/** Envelope fields as the `request.`-prefixed query parameters of Payment Links GET. */
const queryEnvelope = Object.fromEntries(
  Object.entries(envelopeProperties).map(([name, schema]) => {
    const required = !['IsTest', 'IpAddress', 'Source', 'AppInfo'].includes(name);
    return [`request.${lowerFirst(name)}`, required ? schema : Type.Optional(schema)];
  }),
) as TProperties;

const filter = (schema: TSchema) => Type.Optional(schema);

/** `request.paymentLink.<field>` filters, one per payment link field in camelCase; all optional. */
export const paymentLinkFilters = {
  'request.paymentLink.id': filter(Text(64)),
  'request.paymentLink.merchantId': filter(Int32()),
  'request.paymentLink.amount': filter(Text(32)),
  'request.paymentLink.description': filter(Text(500)),
  'request.paymentLink.type': filter(StringEnum(PaymentLinkTypeValues)),
  'request.paymentLink.createdOn': filter(Text(40, { description: 'a date or date-time: that UTC day' })),
  'request.paymentLink.paidOn': filter(Text(40)),
  'request.paymentLink.disabledOn': filter(Text(40)),
  'request.paymentLink.status': filter(StringEnum(PaymentLinkStatusValues)),
  'request.paymentLink.active': filter(Type.Boolean()),
  'request.paymentLink.serviceReferenceNumber': filter(Text(64)),
  'request.paymentLink.invoiceNumber': filter(Text(64)),
  'request.paymentLink.forcedPaymentMethod': filter(StringEnum(ForcedPaymentMethodValues)),
  'request.paymentLink.link': filter(Text(2048)),
  'request.paymentLink.allowRecurringPayment': filter(Type.Boolean()),
  'request.paymentLink.allowedPaymentSchedule': filter(StringEnum(AllowedPaymentScheduleValues)),
  'request.paymentLink.paymentSchedule': filter(StringEnum(PaymentScheduleValues)),
  'request.paymentLink.isOpenPaymentSchedule': filter(Type.Boolean()),
  'request.paymentLink.frequencyId': filter(Int32()),
  'request.paymentLink.startDate': filter(Text(40)),
  'request.paymentLink.endDate': filter(Text(40)),
  'request.paymentLink.recurringDescription': filter(Text(255)),
  'request.paymentLink.installmentTotal': filter(Int32()),
} satisfies TProperties;

export type PaymentLinkFilterName = keyof typeof paymentLinkFilters;

export const PaymentLinksQuery = Type.Object({ ...queryEnvelope, ...paymentLinkFilters });

const group = 'Payment Links';

export const paymentLinkEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/PaymentLinks',
    group,
    summary:
      "The merchant's payment links, filtered by any request.paymentLink.<field>; credentials as request.-prefixed query parameters",
    auth: 'query-envelope',
    querystring: PaymentLinksQuery,
    response: PaymentLinksResponse,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/PaymentLinks',
    group,
    summary: 'Create a payment link: no Amount gives an Open link, a positive Amount a Fixed one',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
  }),
  add: endpoint({
    method: 'POST',
    path: '/api/PaymentLinks/AddPaymentLink',
    group,
    summary: 'Create a payment link (same as POST /api/PaymentLinks)',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
  }),
  disable: endpoint({
    method: 'PUT',
    path: '/api/PaymentLinks/DisablePaymentLink',
    group,
    summary: 'Disable the link PaymentLink.Id: its checkout refuses payment until it is enabled again',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
  }),
  edit: endpoint({
    method: 'PUT',
    path: '/api/PaymentLinks/EditPaymentLink',
    group,
    summary:
      'Edit the unpaid link PaymentLink.Id: only the fields sent change; a sent Amount decides Open or Fixed again',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
  }),
  get: endpoint({
    method: 'POST',
    path: '/api/PaymentLinks/GetPaymentLink',
    group,
    summary: 'One payment link by PaymentLink.Id',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
    definedHere: true,
  }),
  enable: endpoint({
    method: 'PUT',
    path: '/api/PaymentLinks/EnablePaymentLink',
    group,
    summary: 'Enable a disabled link PaymentLink.Id again (a paid link stays paid)',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
    definedHere: true,
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/PaymentLinks/DeletePaymentLink',
    group,
    summary:
      'Delete the link PaymentLink.Id: it disappears from every operation and its page; a sale it took stays in reports',
    auth: 'envelope',
    body: PaymentLinkRequest,
    response: PaymentLinkResponse,
    definedHere: true,
  }),
};
