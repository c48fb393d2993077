import { endpoint } from './endpoint';
import { AuthResponse } from './auth';
import { BusinessSettingsResponse } from './business-settings';
import {
  SettlementReportsResponse,
  SettlementsByDateRequest,
  TransactionNumbersRequest,
  TransactionNumbersResponse,
  TransactionsReportRequest,
  TransactionsReportResponse,
  UnsettledTransactionsResponse,
} from './report';
import {
  GetTokenForCardRequest,
  TokenByIdentifierRequest,
  TokenForCardResponse,
  TokenLookupResponse,
} from './tokens';
import { EnvelopeOnlyRequest } from './transactions';

export const authEndpoints = {
  auth: endpoint({
    method: 'POST',
    path: '/api/Auth',
    group: 'Authentication',
    summary: 'Issue a short-lived signed bearer Token (and its ApiKey id) for the Reporting group',
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: AuthResponse,
  }),
  authThreeDS: endpoint({
    method: 'POST',
    path: '/api/Auth/TokenThreeDS',
    group: 'Authentication',
    summary: 'Issue a token for the 3D-secure flow',
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: AuthResponse,
  }),
};

const report = 'Report';
export const reportEndpoints = {
  geTransactionNumbers: endpoint({
    method: 'POST',
    path: '/api/Report/GeTransactionNumbers',
    group: report,
    summary: 'UserTransactionNumbers used by the merchant (misspelled path kept for compatibility)',
    auth: 'envelope',
    body: TransactionNumbersRequest,
    response: TransactionNumbersResponse,
  }),
  getTransactionNumbers: endpoint({
    method: 'POST',
    path: '/api/Report/GetTransactionNumbers',
    group: report,
    summary: 'UserTransactionNumbers used by the merchant',
    auth: 'envelope',
    body: TransactionNumbersRequest,
    response: TransactionNumbersResponse,
  }),
  getLastSettlementByMerchant: endpoint({
    method: 'POST',
    path: '/api/Report/GetLastSettlementByMerchant',
    group: report,
    summary: "The merchant's last settlement",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: SettlementReportsResponse,
  }),
  getSettlementsByDate: endpoint({
    method: 'POST',
    path: '/api/Report/GetSettlementsByDate',
    group: report,
    summary: 'Settlements completed between StartDate and EndDate',
    auth: 'envelope',
    body: SettlementsByDateRequest,
    response: SettlementReportsResponse,
  }),
  getReportByMerchant: endpoint({
    method: 'POST',
    path: '/api/Report/GetReportByMerchant',
    group: report,
    summary: 'Every transaction of the merchant, with the refund amount rules',
    auth: 'envelope',
    body: TransactionsReportRequest,
    response: TransactionsReportResponse,
  }),
  getReportByUserAndCashier: endpoint({
    method: 'POST',
    path: '/api/Report/GetReportByUserAndCashier',
    group: report,
    summary: 'Transactions made by the authenticated user and cashier',
    auth: 'envelope',
    body: TransactionsReportRequest,
    response: TransactionsReportResponse,
  }),
  getUnsettledTransactions: endpoint({
    method: 'POST',
    path: '/api/Report/GetUnsettledTransactions',
    group: report,
    summary: "Transactions in the merchant's open batch",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: UnsettledTransactionsResponse,
  }),
};

export const businessSettingsEndpoints = {
  businessSettings: endpoint({
    method: 'POST',
    path: '/api/BusinessSettings',
    group: 'Business Settings',
    summary: "The merchant's surcharge, card difference and 3-D Secure settings",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: BusinessSettingsResponse,
  }),
  businessSettingsGet: endpoint({
    method: 'POST',
    path: '/api/BusinessSettings/Get',
    group: 'Business Settings',
    summary: "The merchant's surcharge, card difference and 3-D Secure settings",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: BusinessSettingsResponse,
  }),
};

const admin = 'Gateway Admin';
export const tokenEndpoints = {
  getTokenForCard: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/GetTokenForCard',
    group: admin,
    summary: 'Store a card in the vault for the authenticated user and return its token and identifier',
    auth: 'envelope',
    body: GetTokenForCardRequest,
    response: TokenForCardResponse,
  }),
  getTokenByIdentifier: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/GetTokenByIdentifier',
    group: admin,
    summary: 'The token record of one identifier, scoped to the authenticated user',
    auth: 'envelope',
    body: TokenByIdentifierRequest,
    response: TokenLookupResponse,
  }),
  getTokensByIdentifier: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/GetTokensByIdentifier',
    group: admin,
    summary:
      "Every record of the identifier's card for this user, merchant and credit processor; never the whole vault",
    auth: 'envelope',
    body: TokenByIdentifierRequest,
    response: TokenLookupResponse,
  }),
};
