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
  extra: { token?: string; customerId?: number | null } = {},
): SaleResponse {
  const base = outcome(code, messages);
  return {
    ...base,
    Amount: fromCents(row.amount_cents),
    TaxAmount: fromCents(row.tax_cents),
    TipAmount: fromCents(row.tip_cents),
    SurchargeAmount: fromCents(row.surcharge_cents),
    AppliedSurchargeAmount: fromCents(row.surcharge_cents),
    CardDifferenceAmount: fromCents(row.card_difference_cents),
    ...(row.cashback_cents > 0 ? { CashBackAmount: fromCents(row.cashback_cents) } : {}),
    AuthorizationNumber: row.auth_code,
    CardType: row.card_type,
    LastFour: row.last4,
    ServiceReferenceNumber: row.srn,
    UserTransactionNumber: row.utn,
    ...(row.balance_cents !== null ? { Balance: formatCents(row.balance_cents) } : {}),
    ...(extra.customerId != null ? { CustomerId: extra.customerId } : {}),
    ...(extra.token ? { Token: extra.token } : {}),
    AvsResult: row.avs_result,
    CvnResult: row.cvn_result,
  };
}
