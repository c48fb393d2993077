import { isCents } from '../util/money';

/** Why a cash back is refused: the core's words and their catalog id (undefined: it may be paid). */
export type CashBackRefusal = { message: string; messageId: string } | undefined;

// rule: cash-back-limit
/**
 * What cash back a tender may carry: PIN debit only (the cardholder's PIN authorizes the cash; EBT cash
 * back is not offered), in whole cents, zero or more. No ceiling of its own today: the amount the card
 * is asked for (sale plus cash back) is bounded by the lane's amount confirmation
 * (common/amount-ceiling.ts) and the issuer's answer; a store that wants a cash-back maximum adds it here.
 * Cash back above zero also needs an open till (sale/cash-drawer.ts), which pays it.
 */
export function cashBackRefusal(tenderKind: string, cashBackCents: number): CashBackRefusal {
  if (tenderKind !== 'debit' && cashBackCents !== 0)
    return { message: 'Cash back is paid only on a PIN debit sale.', messageId: 'sale.cashBackDebitOnly' };
  if (!isCents(cashBackCents) || cashBackCents < 0)
    return {
      message: 'Cash back must be zero or a positive number of cents.',
      messageId: 'sale.cashBackNotNegative',
    };
  return undefined;
}
