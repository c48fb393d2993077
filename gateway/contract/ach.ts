import { Type, type Static } from 'typebox';
import { Int32, Money, Text, withBase, withEnvelope } from './common';
import { bankFieldProperties, bankOutcomeProperties, bankReportProperties, nullableDateTime } from './checks';
import { endpoint } from './endpoint';

export const ProcessAchRequest = withEnvelope(bankFieldProperties);
export type ProcessAchRequest = Static<typeof ProcessAchRequest>;

export const AchTransactionInfo = Type.Object({
  AccountNumber: Type.String({ description: 'masked, last four' }),
  AchId: Int32(),
  CheckAmount: Type.String(),
  RoutingNumber: Type.String({ description: 'masked, last four' }),
  ServiceTransactionNumber: Type.String({ description: 'AchId as a decimal string' }),
});

export const AchResponse = withBase({
  ...bankOutcomeProperties,
  ErrorMessages: Type.Array(Type.String()),
  TransactionInfo: AchTransactionInfo,
});
export type AchResponse = Static<typeof AchResponse>;

export const VoidAchRequest = withEnvelope({
  AchId: Type.Optional(Int32({ description: 'the ACH transaction to void (required)' })),
  AbaRouting: Type.Optional(Text(32, { description: 'when sent, must match the transaction' })),
  AccountNumber: Type.Optional(Text(32, { description: 'when sent, must match the transaction' })),
  AchAmount: Type.Optional(Money('when sent, must match the transaction')),
});
export type VoidAchRequest = Static<typeof VoidAchRequest>;

export const VoidAchResponse = withBase(bankOutcomeProperties);
export type VoidAchResponse = Static<typeof VoidAchResponse>;

/** The interface does not list the fields of AchReportParameters; these are the filters a report needs. */
export const AchReportParameters = Type.Object({
  FromDate: Type.Optional(Text(40, { description: "YYYY-MM-DD, merchant's local date, inclusive" })),
  ToDate: Type.Optional(Text(40, { description: "YYYY-MM-DD, merchant's local date, inclusive" })),
  AchId: Type.Optional(Int32()),
});

export const AchReportRequest = withEnvelope({ Parameters: Type.Optional(AchReportParameters) });
export type AchReportRequest = Static<typeof AchReportRequest>;

export const AchReportTransaction = Type.Object({
  ...bankReportProperties,
  ResponseFromHostReceived: Type.Boolean(),
  TerminalId: Type.String(),
  TransactionId: Type.String(),
  TransactionReverted: Type.Boolean(),
  TransactionRevertedOn: nullableDateTime,
});

export const AchReportResponse = withBase({ Transactions: Type.Array(AchReportTransaction) });
export type AchReportResponse = Static<typeof AchReportResponse>;

const group = 'ACH Processor';

export const achEndpoints = {
  processAch: endpoint({
    method: 'POST',
    path: '/api/AchProcessor/ProcessAch',
    group,
    summary: 'Debit a bank account by ACH (PPD, or CCD with COMPANY_NAME)',
    auth: 'envelope',
    body: ProcessAchRequest,
    response: AchResponse,
  }),
  voidAch: endpoint({
    method: 'POST',
    path: '/api/AchProcessor/VoidAch',
    group,
    summary: "Void an ACH debit on its authorization's calendar day",
    auth: 'envelope',
    body: VoidAchRequest,
    response: VoidAchResponse,
  }),
  getReport: endpoint({
    method: 'POST',
    path: '/api/AchProcessor/GetReport',
    group,
    summary: "The merchant's ACH transactions, oldest first (Parameters filter them)",
    auth: 'envelope',
    body: AchReportRequest,
    response: AchReportResponse,
  }),
};
