import { ResponseCode } from '../contract/response-codes';
import type { Queryable } from '../storage/queryable';
import { DomainError } from './outcome';

export type NumberUse = {
  state: 'reserved' | 'used' | 'blocked';
  operation: string;
  paymentId: number | null;
};

export async function findTransactionNumber(
  q: Queryable,
  mid: number,
  utn: string,
): Promise<NumberUse | undefined> {
  const row = await q.first(
    q.qb
      .selectFrom('transaction_numbers')
      .select(['state', 'operation', 'payment_id'])
      .where('mid', '=', mid)
      .where('utn', '=', utn),
  );
  return row ? { state: row.state, operation: row.operation, paymentId: row.payment_id } : undefined;
}

export function refusalFor(use: NumberUse): DomainError {
  return use.state === 'blocked'
    ? new DomainError(ResponseCode.TransactionNumberBlocked, [
        'UserTransactionNumber was reversed before this request arrived; nothing was charged',
      ])
    : new DomainError(ResponseCode.DuplicateTransactionNumber, [
        'UserTransactionNumber was already used; send a new one (nothing was changed)',
      ]);
}

/**
 * Claims a UserTransactionNumber for an operation inside a unit of work. The primary key (mid, utn) is the
 * real guard: two requests racing for one number, even in two processes, cannot both insert it.
 */
export async function reserveTransactionNumber(
  tx: Queryable,
  mid: number,
  utn: string,
  operation: string,
  now: string,
): Promise<void> {
  const existing = await findTransactionNumber(tx, mid, utn);
  if (existing) throw refusalFor(existing);
  await tx.run(
    tx.qb
      .insertInto('transaction_numbers')
      .values({ mid, utn, operation, payment_id: null, state: 'reserved', created_at: now }),
  );
}

export async function settleTransactionNumber(
  tx: Queryable,
  mid: number,
  utn: string,
  paymentId: number | null,
): Promise<void> {
  await tx.run(
    tx.qb
      .updateTable('transaction_numbers')
      .set({ state: 'used', payment_id: paymentId })
      .where('mid', '=', mid)
      .where('utn', '=', utn),
  );
}
