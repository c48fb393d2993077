/**
 * UserTransactionNumber use. Interface, Limits 1: "UserTransactionNumber must be unique; every refund needs
 * a new one"; docs/decisions.md#identity-of-a-payment: unique per merchant for every operation that takes
 * one, reuse is refused and changes nothing; docs/decisions.md#reversal: reversing an unknown number blocks
 * it, so a late original is refused instead of charged.
 *
 * A number is claimed (`reserved`) by the unit of work of the operation that carries it, marked `used` with
 * the payment it produced, released when that unit refuses and changes nothing, or `blocked` by DoReversal.
 * A used number answers 411 (DuplicateTransactionNumber), a blocked one 413 (TransactionNumberBlocked).
 * The replay lookup of http/operation.ts and the one-trip claim of payment-one-trip.ts apply the same rule.
 */
import { ResponseCode } from '../../contract/response-codes';
import type { Queryable } from '../../storage/queryable';
import { prepare } from '../../storage/prepared';
import type { TransactionNumberState } from '../../storage/schema';

const selectNumber = prepare<
  { mid: number; utn: string },
  { state: TransactionNumberState; operation: string; payment_id: number | null }
>((qb, p) =>
  qb
    .selectFrom('transaction_numbers')
    .select(['state', 'operation', 'payment_id'])
    .where('mid', '=', p('mid'))
    .where('utn', '=', p('utn')),
);

const insertNumber = prepare<{ mid: number; utn: string; operation: string; created_at: string }, unknown>(
  (qb, p) =>
    qb
      .insertInto('transaction_numbers')
      .values({
        mid: p('mid'),
        utn: p('utn'),
        operation: p('operation'),
        payment_id: null,
        state: 'reserved',
        created_at: p('created_at'),
      })
      // A number already claimed inserts nothing (both dialects), and only then is it read: a fresh number,
      // the common case, costs one statement.
      .onConflict((oc) => oc.columns(['mid', 'utn']).doNothing()),
);

const markUsed = prepare<{ mid: number; utn: string; payment_id: number | null }, unknown>((qb, p) =>
  qb
    .updateTable('transaction_numbers')
    .set({ state: 'used', payment_id: p('payment_id') })
    .where('mid', '=', p('mid'))
    .where('utn', '=', p('utn')),
);
import { DomainError } from '../outcome';

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
  const row = await q.first(selectNumber({ mid, utn }));
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

// rule: transaction-number-once
/**
 * Claims a UserTransactionNumber for an operation inside a unit of work. The primary key (mid, utn) is the
 * real guard: two requests racing for one number, even in two processes, cannot both insert it. The claim
 * holds the number's lock, which DoReversal takes before it reads the number and blocks it: without it, a
 * reversal could find the number free and then collide with the claim (a DoReversal answering 409). The
 * lock is re-entrant, so a caller that took it already pays one statement more.
 */
export async function reserveTransactionNumber(
  tx: Queryable,
  mid: number,
  utn: string,
  operation: string,
  now: string,
): Promise<void> {
  await tx.lock(`utn:${mid}:${utn}`);
  const inserted = await tx.run(insertNumber({ mid, utn, operation, created_at: now }));
  if (inserted.changes > 0) return;
  const existing = await findTransactionNumber(tx, mid, utn);
  if (existing) throw refusalFor(existing);
  throw new Error(`UserTransactionNumber ${mid}/${utn} neither inserted nor found`);
}

/** DoReversal of a number never seen: it is blocked, so the late original it names is refused (413). */
export async function blockTransactionNumber(
  tx: Queryable,
  mid: number,
  utn: string,
  now: string,
): Promise<void> {
  await tx.run(
    tx.qb
      .insertInto('transaction_numbers')
      .values({ mid, utn, operation: 'reversal', payment_id: null, state: 'blocked', created_at: now }),
  );
}

/** A claim whose unit of work refused after all: the number is free again, nothing changed. */
export async function releaseTransactionNumber(tx: Queryable, mid: number, utn: string): Promise<void> {
  await tx.run(tx.qb.deleteFrom('transaction_numbers').where('mid', '=', mid).where('utn', '=', utn));
}

/** The number is used by `paymentId` (null for an operation that produced no payment row). */
export async function settleTransactionNumber(
  tx: Queryable,
  mid: number,
  utn: string,
  paymentId: number | null,
): Promise<void> {
  await tx.run(markUsed({ mid, utn, payment_id: paymentId }));
}
