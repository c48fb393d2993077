import { Type, type Static, type TObject, type TProperties } from 'typebox';
import { Int32, Text, withBase } from './common';
import { endpoint } from './endpoint';

/** Default and maximum PageSize of the Reporting group (the interface leaves both open). */
export const REPORTING_DEFAULT_PAGE_SIZE = 50;
export const REPORTING_MAX_PAGE_SIZE = 500;

const dateText = (what: string) =>
  Type.Optional(
    Text(40, {
      description: `${what}: YYYY-MM-DD (or MM/DD/YYYY, or a date-time) — the merchant's local date, inclusive`,
    }),
  );

const pageProperties = {
  CurrentPageIndex: Type.Optional(Int32({ description: 'zero-based page index (0 by default)' })),
  PageSize: Type.Optional(
    Int32({
      description: `rows per page: ${REPORTING_DEFAULT_PAGE_SIZE} by default, ${REPORTING_MAX_PAGE_SIZE} at most`,
    }),
  ),
} satisfies TProperties;

const hierarchyProperties = {
  ...pageProperties,
  HierarchyFilterMode: Type.Optional(
    Int32({
      description: '0 (default) every entity; 1 only the entity whose EntityId is HierarchyFilterValue',
    }),
  ),
  ViewLevel: Type.Optional(
    Int32({ description: '0 (default) one row for the merchant; 1 one row per cashier' }),
  ),
  FromDate: dateText('first day'),
  ToDate: dateText('last day'),
  HierarchyFilterValue: Type.Optional(Text(64)),
} satisfies TProperties;

const merchantRangeProperties = {
  ...pageProperties,
  FromDate: dateText('first day'),
  ToDate: dateText('last day'),
  MerchantNumber: Type.Optional(
    Text(32, { description: "the token's merchant id; another merchant's is refused" }),
  ),
} satisfies TProperties;

export const HierarchyRequest = Type.Object(hierarchyProperties);
export const CardSummaryRequest = Type.Object({
  ...hierarchyProperties,
  BatchNumber: Type.Optional(Text(32)),
});
export const MerchantRangeRequest = Type.Object(merchantRangeProperties);
export const BatchDetailRequest = Type.Object({
  ...pageProperties,
  BatchNumber: Type.Optional(Text(32)),
  MerchantNumber: Type.Optional(Text(32)),
  ReportDate: dateText('the batch report (settlement) date'),
});
export const StatementRequest = Type.Object({
  MerchantNumber: Type.Optional(Text(32)),
  StatementId: Type.Optional(Text(64, { description: 'from GetMerchantStatementList (required)' })),
  Zone: Type.Optional(
    Text(32, { description: 'one section of the statement; the whole statement when absent' }),
  ),
});
export const StatementListRequest = Type.Object({ MerchantNumber: Type.Optional(Text(32)) });

export type HierarchyRequest = Static<typeof HierarchyRequest>;

export const Paging = Type.Object({
  CurrentPageIndex: Int32(),
  NumberOfRecords: Int32({ description: 'rows in the full result, every page' }),
  PageSize: Int32(),
});

/** A paged Reporting answer. Total has a row's fields: the sums of the full result, not of the page. */
function paged<R extends TObject>(row: R) {
  return withBase({
    ErrorMessages: Type.Array(Type.String()),
    Paging,
    Result: Type.Array(row),
    Total: row,
  });
}

const entityProperties = {
  EntityId: Type.String(),
  EntityName: Type.String(),
  EntityType: Type.String({ description: 'Merchant or Cashier' }),
  PlatformId: Type.String({ description: "the merchant's credit processor" }),
} satisfies TProperties;

const batchMetrics = {
  AvgTrans: Type.Number({ description: 'SaleAmount / number of sales' }),
  KeyedPercent: Type.Number({ description: 'keyed transactions as a percentage of all' }),
  NetAmount: Type.Number({ description: 'SaleAmount - ReturnAmount' }),
  PrepaidDiscount: Type.Number(),
  ReturnAmount: Type.Number(),
  SaleAmount: Type.Number(),
  KeyedCount: Int32(),
  TransactionCount: Int32(),
} satisfies TProperties;

export const AuthorizationLogRow = Type.Object({
  AuthorizationAmount: Type.Number(),
  AuthorizationCount: Int32(),
  ...entityProperties,
});
export const BatchDetailRow = Type.Object({
  AuthorizationNumber: Type.String(),
  CardDescription: Type.String(),
  CardNumber: Type.String({ description: 'masked: first six and last four' }),
  CardType: Type.String(),
  EntryModeDescription: Type.String(),
  InvoiceNumber: Type.String(),
  Keyed: Type.String({ description: 'Y or N' }),
  RegulatedIDDescription: Type.String(),
  ReportDate: Type.String(),
  TransactionCode: Type.String({ description: 'S sale, R return' }),
  TransactionDate: Type.String(),
  TransactionDescription: Type.String(),
  TransactionID: Type.String({ description: 'the ServiceReferenceNumber' }),
  DebitRoutingMethodID: Int32({ description: '1 PIN (debit, EBT), 0 otherwise' }),
  RegulatedID: Int32(),
  TransactionAmount: Type.Number({ description: 'returns are negative' }),
});
export const BatchSummaryByEntityRow = Type.Object({ ...entityProperties, ...batchMetrics });
export const BatchSummaryByMerchantRow = Type.Object({
  BatchNumber: Type.String(),
  FileSource: Type.String(),
  ReportDate: Type.String(),
  TerminalNumber: Type.String(),
  ...batchMetrics,
});
export const CardSummaryRow = Type.Object({
  CardDescription: Type.String(),
  CardType: Type.String(),
  NetAmount: Type.Number(),
  ReturnAmount: Type.Number(),
  SaleAmount: Type.Number(),
  ReturnCount: Int32(),
  SaleCount: Int32(),
});
export const ChargebackRow = Type.Object({
  AuthorizationCode: Type.String(),
  CBType: Type.String(),
  CBTypeDescription: Type.String(),
  CardNumber: Type.String({ description: 'masked: first six and last four' }),
  CardType: Type.String(),
  CardTypeDescription: Type.String(),
  CaseNumber: Type.String(),
  Disposition: Type.String(),
  PreDispute: Type.String(),
  ReasonCode: Type.String(),
  ReasonCodeDescription: Type.String(),
  ReasonText: Type.String(),
  ReferenceNumber: Type.String(),
  ReportDate: Type.String(),
  RecordID: Int32(),
  RepresentedCBAmount: Type.Number(),
});
export const DepositRow = Type.Object({
  DDANumber: Type.String({ description: 'masked' }),
  ReportDate: Type.String(),
  RoutingNumber: Type.String({ description: 'masked' }),
  TraceNumber: Type.String(),
  TransactionCode: Type.String({ description: 'NACHA: 22 checking credit, 27 checking debit' }),
  TransactionCodeDescription: Type.String(),
  TransactionType: Type.String(),
  TransactionTypeDescription: Type.String(),
  TransmissionDate: Type.String(),
  DepositAmount: Type.Number(),
});
export const RetrievalRow = Type.Object({
  CardNumber: Type.String({ description: 'masked: first six and last four' }),
  CardType: Type.String(),
  CardTypeDescription: Type.String(),
  DateReceived: Type.String(),
  DueDate: Type.String(),
  ReasonCode: Type.String(),
  ReasonCodeDescription: Type.String(),
  ReferenceNumber: Type.String(),
  ReportDate: Type.String(),
  RequestType: Type.String(),
  TransactionDate: Type.String(),
  TransactionAmount: Type.Number(),
});
export const StatementRow = Type.Object({
  MerchantNumber: Type.String(),
  StatementData: Type.String({ description: 'the statement (or the Zone asked for) as JSON text' }),
  StatementId: Type.String(),
});
export const StatementListRow = Type.Object({
  MerchantNumber: Type.String(),
  StatementDate: Type.String({ description: 'last day of the statement month' }),
  StatementId: Type.String(),
  Zones: Type.Array(Type.String(), { description: 'the sections GetMerchantStatement can return one of' }),
});

export const AuthorizationLogResponse = paged(AuthorizationLogRow);
export const BatchDetailResponse = paged(BatchDetailRow);
export const BatchSummaryByEntityResponse = paged(BatchSummaryByEntityRow);
export const BatchSummaryByMerchantResponse = paged(BatchSummaryByMerchantRow);
export const CardSummaryResponse = paged(CardSummaryRow);
export const ChargebacksResponse = paged(ChargebackRow);
export const DepositsResponse = paged(DepositRow);
export const RetrievalsResponse = paged(RetrievalRow);
export const StatementResponse = withBase({ ErrorMessages: Type.Array(Type.String()), Result: StatementRow });
export const StatementListResponse = withBase({
  ErrorMessages: Type.Array(Type.String()),
  Result: Type.Array(StatementListRow),
});

export type AuthorizationLogRow = Static<typeof AuthorizationLogRow>;
export type BatchDetailRow = Static<typeof BatchDetailRow>;
export type BatchSummaryByEntityRow = Static<typeof BatchSummaryByEntityRow>;
export type BatchSummaryByMerchantRow = Static<typeof BatchSummaryByMerchantRow>;
export type CardSummaryRow = Static<typeof CardSummaryRow>;
export type ChargebackRow = Static<typeof ChargebackRow>;
export type DepositRow = Static<typeof DepositRow>;
export type RetrievalRow = Static<typeof RetrievalRow>;

const group = 'Reporting';

function reporting<const P extends string, B extends TObject, R extends TObject>(
  path: P,
  summary: string,
  body: B,
  response: R,
) {
  return endpoint({ method: 'POST', path, group, summary, auth: 'bearer', body, response });
}

export const reportingEndpoints = {
  authorizationLogSummary: reporting(
    '/api/Reporting/GetAuthorizationLogSummary',
    'Authorization attempts (approved and declined) and amounts per merchant or cashier',
    HierarchyRequest,
    AuthorizationLogResponse,
  ),
  batchDetail: reporting(
    '/api/Reporting/GetBatchDetail',
    'The transactions of settled batches (by BatchNumber or ReportDate)',
    BatchDetailRequest,
    BatchDetailResponse,
  ),
  batchSummaryByEntity: reporting(
    '/api/Reporting/GetBatchSummaryByEntity',
    'Settled sales, returns and keyed share per merchant or cashier',
    HierarchyRequest,
    BatchSummaryByEntityResponse,
  ),
  batchSummaryByMerchant: reporting(
    '/api/Reporting/GetBatchSummaryByMerchant',
    'One row per settled batch',
    MerchantRangeRequest,
    BatchSummaryByMerchantResponse,
  ),
  cardSummary: reporting(
    '/api/Reporting/GetCardSummary',
    'Settled sales and returns per card type (the card mix)',
    CardSummaryRequest,
    CardSummaryResponse,
  ),
  chargebacksDetail: reporting(
    '/api/Reporting/GetChargebacksDetail',
    'Every chargeback record (each stage of each case)',
    MerchantRangeRequest,
    ChargebacksResponse,
  ),
  chargebacksSummary: reporting(
    '/api/Reporting/GetChargebacksSummary',
    'One row per chargeback case: its latest record',
    MerchantRangeRequest,
    ChargebacksResponse,
  ),
  depositsSummary: reporting(
    '/api/Reporting/GetDepositsSummary',
    'Deposits: the batches closed (funded) by DoCloseAllSettledTransaction, one per close',
    MerchantRangeRequest,
    DepositsResponse,
  ),
  merchantStatement: reporting(
    '/api/Reporting/GetMerchantStatement',
    'One monthly statement, or one Zone of it',
    StatementRequest,
    StatementResponse,
  ),
  merchantStatementList: reporting(
    '/api/Reporting/GetMerchantStatementList',
    "The merchant's monthly statements (each completed month with activity)",
    StatementListRequest,
    StatementListResponse,
  ),
  retrievalsDetail: reporting(
    '/api/Reporting/GetRetrievalsDetail',
    'Retrieval (copy) requests',
    MerchantRangeRequest,
    RetrievalsResponse,
  ),
};
