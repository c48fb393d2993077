import { Type, type Static, type TProperties } from 'typebox';
import { Int32, StringEnum, Text, withBase, withEnvelope } from './common';
import { endpoint } from './endpoint';
import { EnvelopeOnlyRequest } from './transactions';

export const PacketIdentifierValues = ['A', 'O', 'V'] as const;
export const AccountTypeValues = ['CHECKING', 'SAVING'] as const;

/** Check Method enumeration of the interface (2 is not a value). */
export const CheckMethod = {
  CheckNoVerificationDLOptional: 0,
  CheckNoVerificationDLRequired: 1,
  CheckVerificationIdentityVerificationDLOptional: 3,
  CheckVerificationIdentityVerificationDLRequired: 4,
  CheckVerificationOnlyDLOptional: 5,
  CheckVerificationOnlyDLRequired: 6,
  IdentityVerificationOnlyDLOptional: 7,
  IdentityVerificationOnlyDLRequired: 8,
} as const;

/** DL_STATE and STATE: each code's integer value is its zero-based position (AB=0 … YT=67). */
export const JurisdictionCodes = [
  'AB', 'AK', 'AL', 'AR', 'AS', 'AZ', 'BC', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'GU', 'HI', 'IA',
  'ID', 'IL', 'IN', 'KS', 'KY', 'LA', 'MA', 'MB', 'MD', 'ME', 'MI', 'MN', 'MO', 'MS', 'MT', 'NB', 'NC',
  'ND', 'NE', 'NF', 'NH', 'NJ', 'NM', 'NS', 'NT', 'NU', 'NV', 'NY', 'OH', 'OK', 'ON', 'OR', 'PA', 'PE',
  'PR', 'QC', 'RI', 'SC', 'SD', 'SK', 'TN', 'TX', 'UT', 'VA', 'VI', 'VT', 'WA', 'WI', 'WV', 'WY', 'YT',
] as const; // prettier-ignore

/**
 * The bank fields shared by ProcessCheck and ProcessAch: all optional strings in the interface; which are
 * required depends on the operation and the Method, so the operation checks them (and reports them all).
 * Bounds are generous so that a wrong value gets its own message rather than a length error.
 */
export const bankFieldProperties = {
  ACCOUNT_NUMBER: Type.Optional(Text(32, { description: 'bank account number, 4-17 digits' })),
  ACCOUNT_TYPE: Type.Optional(StringEnum(AccountTypeValues, 'CHECKING (default) or SAVING')),
  ADDRESS1: Type.Optional(Text(128)),
  ADDRESS2: Type.Optional(Text(128)),
  CHECK_AMOUNT: Type.Optional(
    Text(32, { description: 'amount as a decimal string with at most two decimals, e.g. "125.50"' }),
  ),
  CHECK_NUMBER: Type.Optional(Text(32, { description: '1-10 digits' })),
  CITY: Type.Optional(Text(64)),
  COMPANY_NAME: Type.Optional(Text(128)),
  COURTESY_CARD_ID: Type.Optional(Text(64)),
  DL_NUMBER: Type.Optional(
    Text(32, { description: "driver's licence number (sealed, never stored in clear)" }),
  ),
  DL_STATE: Type.Optional(Text(8, { description: 'jurisdiction code (AB..YT) or its position (0-67)' })),
  DOB_YEAR: Type.Optional(Text(8, { description: 'four-digit year of birth' })),
  FIRST_NAME: Type.Optional(Text(64)),
  LAST_NAME: Type.Optional(Text(64)),
  PHONE_NUMBER: Type.Optional(Text(32, { description: '10 digits' })),
  ROUTING_NUMBER: Type.Optional(
    Text(32, { description: 'ABA routing number, 9 digits with a valid check digit' }),
  ),
  SSN4: Type.Optional(Text(8, { description: 'last four digits of the SSN' })),
  STATE: Type.Optional(Text(8, { description: 'jurisdiction code (AB..YT) or its position (0-67)' })),
  TerminalID: Type.Optional(Text(32)),
  ZIP: Type.Optional(Text(16, { description: '5 digits or ZIP+4' })),
  Method: Type.Optional(Int32({ description: 'Check Method enumeration (0,1,3,4,5,6,7,8); 0 when absent' })),
} satisfies TProperties;

export const ProcessCheckRequest = withEnvelope({
  ...bankFieldProperties,
  PacketIdentifier: Type.Optional(
    StringEnum(PacketIdentifierValues, 'A authorize (default), O manager override void-and-replace, V void'),
  ),
  CheckTransactionId: Type.Optional(
    Int32({ description: 'the prior check (its ServiceTransactionNumber) for O and V' }),
  ),
  SaveToken: Type.Optional(Type.Boolean({ description: 'store the bank details and return a UUIDv4 Token' })),
});
export type ProcessCheckRequest = Static<typeof ProcessCheckRequest>;

export const ProcessTokenRequest = withEnvelope({
  Token: Text(64, { description: 'UUIDv4 of a check token saved by ProcessCheck' }),
  CHECK_AMOUNT: Type.Optional(Text(32, { description: 'required; decimal string, at most two decimals' })),
  CHECK_NUMBER: Type.Optional(Text(32)),
});
export type ProcessTokenRequest = Static<typeof ProcessTokenRequest>;

/** The check/ACH outcome fields every bank response carries. */
export const bankOutcomeProperties = {
  Code: Type.String({ description: 'APPROVED, DECLINED, VOIDED or ERROR' }),
  CodeTypeMsg: Type.Array(Type.String()),
  Message: Type.String(),
  ResponseType: Type.String({ description: 'A approved, D declined, V voided, E error' }),
  ResponseTypeText: Type.String(),
  ResultCode: Type.String({
    description: '00 approved, 05 negative file, 12 identity not verified, 20 voided',
  }),
  ResultCodeMsg: Type.Array(Type.String()),
  TypeCode: Type.String({ description: 'NACHA SEC code: POP for checks, PPD or CCD for ACH' }),
  ValidationMessage: Type.String(),
} satisfies TProperties;

export const CheckTransactionInfo = Type.Object({
  AccountNumber: Type.String({ description: 'masked, last four' }),
  CheckAmount: Type.String(),
  CheckNumber: Type.String(),
  RoutingNumber: Type.String({ description: 'masked, last four' }),
  ServiceTransactionNumber: Type.String({
    description: 'the check id as a decimal string (CheckTransactionId)',
  }),
});

export const CheckResponse = withBase({
  ...bankOutcomeProperties,
  ErrorMessages: Type.Array(Type.String()),
  Token: Type.String({ description: 'UUIDv4, when SaveToken was true and the check was approved' }),
  TransactionInfo: CheckTransactionInfo,
});
export type CheckResponse = Static<typeof CheckResponse>;

const nullableDateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** The fields of a report transaction that GetReport of checks and of ACH both answer. */
export const bankReportProperties = {
  AccountNumber: Type.String(),
  AccountType: Type.String(),
  CheckAmount: Type.Number(),
  CheckNumber: Type.String(),
  Code: Type.String(),
  MadeOn: Type.String({ format: 'date-time' }),
  Message: Type.String(),
  PacketIdentifier: Type.String(),
  ResponseType: Type.String(),
  ResponseTypeText: Type.String(),
  ResultCode: Type.String(),
  RoutingNumber: Type.String(),
} satisfies TProperties;

export const CheckReportTransaction = Type.Object({
  ...bankReportProperties,
  ServiceTransactionNumber: Type.String(),
  TypeCode: Type.String(),
  TransactionVoided: Type.Boolean(),
  TransactionVoidedOn: nullableDateTime,
});

export const CheckReportResponse = withBase({ Transactions: Type.Array(CheckReportTransaction) });
export type CheckReportResponse = Static<typeof CheckReportResponse>;

const group = 'Check Processor';

export const checkEndpoints = {
  processCheck: endpoint({
    method: 'POST',
    path: '/api/CheckProcessor/ProcessCheck',
    group,
    summary:
      'Authorize (A), override-and-replace (O) or void on the same calendar day (V) an electronic check',
    auth: 'envelope',
    body: ProcessCheckRequest,
    response: CheckResponse,
  }),
  processToken: endpoint({
    method: 'POST',
    path: '/api/CheckProcessor/ProcessToken',
    group,
    summary: 'Authorize a check with the bank details saved under a Token',
    auth: 'envelope',
    body: ProcessTokenRequest,
    response: CheckResponse,
  }),
  getReport: endpoint({
    method: 'POST',
    path: '/api/CheckProcessor/GetReport',
    group,
    summary: "The merchant's checks, oldest first",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: CheckReportResponse,
  }),
};

export { nullableDateTime };
