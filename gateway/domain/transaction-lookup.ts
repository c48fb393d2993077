import { ResponseCode } from '../contract/response-codes';
import type { TransactionLookupResponse } from '../contract/transactions';
import type { RequestContext, Services } from './context';
import { fromCents } from './money';
import { DomainError } from './outcome';
import { saleResponse, type PaymentRow } from './sale-response';
import { totalAmountCents } from './rules/card-paid';
import { findTransactionNumber } from './rules/user-transaction-number';
import type { Queryable } from '../storage/queryable';

/** The interface's names for the gateway's operations (GetTransaction's Operation). */
const operationNames: Readonly<Record<string, string>> = {
  sale: 'Sale',
  preauth: 'ProcessPreauth',
  completion: 'ClosePreauth',
  debit: 'SaleDebit',
  token_sale: 'SaleWithToken',
  wallet_a: 'SaleWithDeviceWalletA',
  wallet_b: 'SaleWithDeviceWalletB',
  force: 'ForceRetailSale',
  refund: 'Refund',
  gift_sale: 'GiftCard/Sale',
  gift_reload: 'GiftCard/Reload',
  gift_activate: 'GiftCard/Activate',
  ebt_food_sale: 'EbtFoodStampSale',
  ebt_cash_sale: 'EbtCashBenefitsSale',
  ebt_cash_withdrawal: 'EbtCashBenefitsWithdrawal',
};

const statusNames = {
  pending: 'Pending',
  approved: 'Approved',
  declined: 'Declined',
  failed: 'Failed',
  voided: 'Voided',
  reversed: 'Reversed',
} as const;

/**
 * The code a lookup answers with: the transaction's own standing, so a client that decides approval by
 * ResponseCode 200, verbiage containing APPROV or an AuthorizationNumber reads a lookup as it would have
 * read the original answer — and a cancelled or undecided payment as not approved.
 */
function standingCode(row: PaymentRow): number {
  switch (row.status) {
    case 'approved':
      return row.response_code === ResponseCode.PartialApproval
        ? ResponseCode.PartialApproval
        : ResponseCode.Success;
    case 'declined':
    case 'failed':
      // The stored outcome: a decline's reason (answered as 3 + DeclineCode) or 502/504.
      return row.response_code !== 0 ? row.response_code : ResponseCode.Declined;
    case 'voided':
    case 'reversed':
      return ResponseCode.TransactionCancelled;
    case 'pending':
      return ResponseCode.TransactionPending;
  }
}

function standingMessage(row: PaymentRow): string {
  switch (row.status) {
    case 'approved':
      return row.refunded_cents > 0 ? 'Approved; refunds since are in TotalRefundedAmount' : 'Approved';
    case 'declined':
    case 'failed':
      return row.response_msg || 'Not approved';
    case 'voided':
      return 'Voided: nothing is charged';
    case 'reversed':
      return 'Reversed: nothing is charged';
    case 'pending':
      return 'The processor has not answered yet';
  }
}

/**
 * GetTransaction by UserTransactionNumber, as published clients call it (and as the terminal asks before
 * it reverses a sale whose answer was lost): only the authenticated merchant's transactions.
 */
export async function lookupTransaction(
  svc: Services,
  ctx: RequestContext,
  utn: string,
): Promise<TransactionLookupResponse> {
  const { mid } = ctx.principal;
  const q = svc.storage.read;
  const row = await q.first(
    q.qb.selectFrom('payments').selectAll().where('mid', '=', mid).where('utn', '=', utn),
  );
  if (!row) {
    const use = await findTransactionNumber(q, mid, utn);
    throw new DomainError(ResponseCode.UserTransactionNumberNotFound, [
      use?.state === 'blocked'
        ? 'No transaction has this UserTransactionNumber: it was reversed before any arrived, nothing is charged'
        : use?.operation === 'void'
          ? 'This UserTransactionNumber names a void, not a transaction: look the voided one up by its own number'
          : 'No transaction of this merchant has this UserTransactionNumber',
    ]);
  }
  const standing = row.status === 'approved';
  const base = saleResponse(row, standingCode(row), [standingMessage(row)]);
  const refundable = row.operation === 'refund' ? 0 : totalAmountCents(row);
  return {
    ...base,
    // Only a standing approval carries its authorization number (the published approval rule reads it).
    AuthorizationNumber: standing ? row.auth_code : '',
    TransactionStatus: statusNames[row.status],
    Operation: operationNames[row.operation] ?? row.operation,
    TransactionType: row.transaction_type,
    TransactionDate: row.created_at,
    TotalRefundedAmount: fromCents(row.refunded_cents),
    RemainingRefundableAmount: fromCents(
      standing ? Math.max(0, refundable - row.refunded_cents - row.pending_refund_cents) : 0,
    ),
    IsTest: row.is_test === 1,
  };
}

/** The service reference number of the merchant's payment made with this transaction number, if any. */
export async function srnOfTransactionNumber(
  q: Queryable,
  mid: number,
  utn: string,
): Promise<string | undefined> {
  const row = await q.first(
    q.qb.selectFrom('payments').select('srn').where('mid', '=', mid).where('utn', '=', utn),
  );
  return row?.srn;
}
