import { randomUUID } from 'node:crypto';
import type { Selectable } from 'kysely';
import { EcommerceStatusValues, type MobileWalletTransactionRecord } from '../contract/recurring-billing';
import { ResponseCode } from '../contract/response-codes';
import { fromCents } from './money';
import { DomainError, success } from './outcome';
import type { RequestScope } from './request-scope';
import { UniqueViolation } from '../storage/queryable';
import type { MobileWalletTransactionsTable } from '../storage/schema-commerce';

/**
 * Mobile-wallet transactions (MobileWalletTransaction and its Create): records the merchant keeps of its
 * wallet sales; an EcommerceId is stored once per merchant.
 */

type WalletRow = Selectable<MobileWalletTransactionsTable>;

function walletRecord(r: WalletRow): MobileWalletTransactionRecord {
  const n = (cents: number | null) => (cents === null ? null : fromCents(cents));
  return {
    Id: r.wallet_id,
    Mid: r.mid,
    BusinessCustomerId: r.business_customer_id,
    DailyTransactionId: r.daily_transaction_id,
    EcommerceId: r.ecommerce_id,
    EcommerceStatus: (EcommerceStatusValues as readonly string[]).includes(r.ecommerce_status)
      ? (r.ecommerce_status as MobileWalletTransactionRecord['EcommerceStatus'])
      : 'Open',
    Fee: n(r.fee_cents),
    NetAmount: n(r.net_amount_cents),
    ReferenceNumber: r.reference_number,
    SubTotal: n(r.sub_total_cents),
    Tax: n(r.tax_cents),
    Total: n(r.total_cents),
    TotalRefundedAmount: n(r.total_refunded_cents),
    TransactionDate: r.transaction_date,
  };
}

export type WalletAmounts = {
  fee_cents: number | null;
  net_amount_cents: number | null;
  sub_total_cents: number | null;
  tax_cents: number | null;
  total_cents: number | null;
  total_refunded_cents: number | null;
};

export type NewWalletTransaction = {
  amounts: WalletAmounts;
  daily: number | undefined;
  date: string | undefined;
  businessCustomerId: string | undefined;
  ecommerceId: string | undefined;
  ecommerceStatus: string | undefined;
  referenceNumber: string | undefined;
};

export async function storeWalletTransaction(c: NewWalletTransaction, scope: RequestScope) {
  const row = {
    wallet_id: randomUUID(),
    mid: scope.principal.mid,
    user_id: scope.principal.userId,
    business_customer_id: c.businessCustomerId ?? null,
    daily_transaction_id: c.daily ?? null,
    ecommerce_id: c.ecommerceId ?? null,
    ecommerce_status: c.ecommerceStatus ?? 'Open',
    reference_number: c.referenceNumber ?? null,
    transaction_date: c.date ? new Date(c.date).toISOString() : null,
    created_at: scope.now.toISOString(),
    ...c.amounts,
  };
  try {
    const stored = await scope.services.storage.write((tx) =>
      tx.first(tx.qb.insertInto('mobile_wallet_transactions').values(row).returningAll()),
    );
    if (!stored) throw new Error('wallet insert returned nothing');
    return { ...success(['Mobile-wallet transaction stored']), Transactions: [walletRecord(stored)] };
  } catch (error) {
    if (error instanceof UniqueViolation && error.constraint.includes('ecommerce_id'))
      throw new DomainError(ResponseCode.AlreadyExists, ['EcommerceId is already stored for this merchant']);
    throw error;
  }
}

export type WalletFilters = {
  ecommerceId: string | undefined;
  ecommerceStatus: string | undefined;
  referenceNumber: string | undefined;
  businessCustomerId: string | undefined;
  daily: number | undefined;
};

/** The merchant's wallet transactions matching every filter given, oldest first. */
export async function listWalletTransactions(f: WalletFilters, scope: RequestScope) {
  const q = scope.services.storage.read;
  let query = q.qb
    .selectFrom('mobile_wallet_transactions')
    .selectAll()
    .where('mid', '=', scope.principal.mid);
  if (f.ecommerceId !== undefined) query = query.where('ecommerce_id', '=', f.ecommerceId);
  if (f.ecommerceStatus !== undefined) query = query.where('ecommerce_status', '=', f.ecommerceStatus);
  if (f.referenceNumber !== undefined) query = query.where('reference_number', '=', f.referenceNumber);
  if (f.businessCustomerId !== undefined)
    query = query.where('business_customer_id', '=', f.businessCustomerId);
  if (f.daily !== undefined) query = query.where('daily_transaction_id', '=', f.daily);
  const rows = await q.all(query.orderBy('id'));
  return { ...success(), Transactions: rows.map(walletRecord) };
}
