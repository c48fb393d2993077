import { Type, type Static, type TProperties, type TSchema } from 'typebox';

/** int32 of the interface. */
export const Int32 = (options: { description?: string } = {}) =>
  Type.Integer({ minimum: -2147483648, maximum: 2147483647, ...options });

/** Free text with a bound, so a hostile body cannot make us store megabytes in a name field. */
export const Text = (maxLength = 255, options: { description?: string } = {}) =>
  Type.String({ maxLength, ...options });

/** Amounts travel as JSON numbers (never quoted strings); the domain keeps integer cents. */
export const Money = (description = 'amount as a JSON number with at most two decimals') =>
  Type.Number({ description });

export const DateTime = (description?: string) =>
  Type.String({ format: 'date-time', maxLength: 40, ...(description ? { description } : {}) });

export const SourceValues = [
  'ApiClient',
  'ServicePortal',
  'ServiceApp',
  'BatchCloser',
  'RecurringBillingTask',
  'ServicePlugin',
  'PaymentFrame',
  'VirtualTerminal',
  'the service',
  'Recurring',
  'Invoice',
  'QuickPayment',
  'TakePayment',
  'QuickPaymentMobileApp',
  'IntegrationCms',
  'IntegrationCrmA',
  'IntegrationAccounting',
  'IntegrationErp',
  'IntegrationCrmB',
  'TakePaymentMobileApp',
] as const;

/** A string enumeration: a union of literals, typed as the union of the values. */
export function StringEnum<const T extends readonly string[]>(values: T, description?: string) {
  return Type.Unsafe<T[number]>({
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });
}

/**
 * The credential envelope, declared once: every operation outside the Reporting group carries it.
 * Payment Links GET carries the same fields as `request.`-prefixed query parameters.
 */
export const envelopeProperties = {
  AppKey: Text(128, { description: 'application key assigned by the service' }),
  AppType: Int32({ description: 'application type assigned by the service' }),
  mid: Int32({ description: 'merchant id' }),
  cid: Int32({ description: "cashier id, the merchant's subclient" }),
  UserName: Text(128, { description: 'user credential of the client' }),
  Password: Text(256, { description: 'password of the client' }),
  IsTest: Type.Optional(Type.Boolean({ description: 'true marks a test sale' })),
  IpAddress: Type.Optional(Text(64)),
  Source: Type.Optional(StringEnum(SourceValues, 'origin of the request')),
  AppInfo: Type.Optional(Text(512)),
} satisfies TProperties;

export const envelopeFieldNames = Object.keys(envelopeProperties) as (keyof typeof envelopeProperties)[];

/**
 * The envelope as one shared schema: buildGateway registers it once (`addSchema`), bodies reference it by
 * `$ref`, and /openapi.json shows it once, as `components/schemas/Envelope`.
 */
export const ENVELOPE_ID = 'Envelope';

export const Envelope = Type.Object(envelopeProperties, { $id: ENVELOPE_ID });

/** The schemas every route may reference by `$ref`, each registered once with the app by its `$id`. */
export const sharedSchemas: readonly { readonly id: string; readonly schema: TSchema }[] = [
  { id: ENVELOPE_ID, schema: Envelope },
];

/** A reference to the registered envelope, typed as the envelope itself. */
const EnvelopeRef = Type.Unsafe<Static<typeof Envelope>>({ $ref: ENVELOPE_ID });

/** An operation's body: the envelope (by reference) and its own fields. */
export function withEnvelope<P extends TProperties>(fields: P) {
  return Type.Intersect([EnvelopeRef, Type.Object(fields)]);
}

export const baseResponseProperties = {
  Msg: Type.Array(Type.String(), { description: 'every problem found, or the outcome' }),
  ResponseCode: Int32({ description: 'outcome code, see the ResponseCode catalog' }),
  displayMessage: Type.String(),
  verbiage: Type.String(),
  DeclineCode: Type.Optional(
    Int32({
      description:
        "declines only (ResponseCode 3, the reason's verbiage): the reason, see the DeclineCode table of the catalog",
    }),
  ),
} satisfies TProperties;

/** The generic response: Msg, ResponseCode, displayMessage, verbiage. */
export const GenericResponse = Type.Object(baseResponseProperties);

/**
 * A response: the four base fields plus the operation's own, all optional, because a failed operation
 * answers with the base fields alone.
 */
export function withBase<P extends TProperties>(fields: P) {
  return Type.Object({ ...baseResponseProperties, ...Type.Partial(Type.Object(fields)).properties });
}

export type AnySchema = TSchema;
