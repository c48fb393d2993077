import type { SaleResponse } from '../contract/card-sale';
import type { PaymentsTable } from '../storage/schema';
import { fromCents, formatCents } from './money';
import { outcome } from './outcome';

export type PaymentRow = Omit<PaymentsTable, 'id'> & { id: number };

/** The sale response of the interface for a payment row and its outcome. Only first six / last four leave. */
export function saleResponse(
  row: PaymentRow,
  code: number,
  messages: string[],
  extra: { token?: string; customerId?: number | null; emvData?: string } = {},
): SaleResponse {
  const base = outcome(code, messages);
  // Built field by field rather than with conditional spreads: this runs for every card answer, and a
  // spread of a maybe-empty object costs a slow object-literal path each time.
  const response: SaleResponse = {
    Msg: base.Msg,
    ResponseCode: base.ResponseCode,
    displayMessage: base.displayMessage,
    verbiage: base.verbiage,
    Amount: fromCents(row.amount_cents),
    TaxAmount: fromCents(row.tax_cents),
    TipAmount: fromCents(row.tip_cents),
    SurchargeAmount: fromCents(row.surcharge_cents),
    AppliedSurchargeAmount: fromCents(row.surcharge_cents),
    CardDifferenceAmount: fromCents(row.card_difference_cents),
    AuthorizationNumber: row.auth_code,
    CardType: row.card_type,
    LastFour: row.last4,
    ServiceReferenceNumber: row.srn,
    UserTransactionNumber: row.utn,
    AvsResult: row.avs_result,
    CvnResult: row.cvn_result,
  };
  if (base.DeclineCode !== undefined) response.DeclineCode = base.DeclineCode;
  if (row.cashback_cents > 0) response.CashBackAmount = fromCents(row.cashback_cents);
  if (row.balance_cents !== null) response.Balance = formatCents(row.balance_cents);
  if (extra.customerId != null) response.CustomerId = extra.customerId;
  if (extra.token) response.Token = extra.token;
  // The issuer's answer for the card (8A, 91, scripts): computed for this response, never stored.
  if (extra.emvData) response.EmvData = extra.emvData;
  return response;
}
