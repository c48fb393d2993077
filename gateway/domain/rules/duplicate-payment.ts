/**
 * Duplicate payment. Interface, Limits 4: "A payment with the same signature as a recent payment is
 * rejected unless ForceDuplication is true" (card sale field ForceDuplication: "run the payment even when a
 * recent payment with the same signature exists"); docs/decisions.md#identity-of-a-payment: same merchant,
 * card fingerprint, amount and type within the window (5 minutes by default, configurable: PaymentRules).
 *
 * The signature: merchant, card fingerprint, base amount, TransactionType and operation. The operation is
 * part of it because one TransactionType covers movements that are not repeats of each other: a gift card
 * sale, its return and a reload are all 7, an EBT food and a cash benefit sale are both 6.
 * Counted: approved payments and those still at the processor (pending), so a twin sent while the first is
 * being authorized is refused too. The unit of work that applies the rule holds `duplicateLockKey` first,
 * so two twins cannot both find nothing. Card payments apply it in payments.ts (and in one statement on
 * PostgreSQL, payment-one-trip.ts), gift and EBT movements in stored-value.ts.
 */
import type { Kysely } from 'kysely';
import { ResponseCode } from '../../contract/response-codes';
import { prepare } from '../../storage/prepared';
import type { Database } from '../../storage/schema';
import type { Cents } from '../money';
import { DomainError } from '../outcome';

export type PaymentSignature = {
  mid: number;
  fingerprint: string;
  /** The base amount (Amount), without tax, tip or other extras. */
  amount: Cents;
  type: number;
  operation: string;
};

/** The signature's recent payments: `since` is `windowStart`. */
export type DuplicateQuery = PaymentSignature & { since: string };

/** The lock a unit of work holds while it applies the rule and records the payment. */
export function duplicateLockKey(mid: number, fingerprint: string): string {
  return `card:${mid}:${fingerprint}`;
}

/** The oldest instant a payment still counts as recent at `now`. */
export function windowStart(now: Date, windowMs: number): string {
  return new Date(now.getTime() - windowMs).toISOString();
}

/** Stands for an argument of the rule's query inside a prepared statement (storage/prepared.ts). */
export type DuplicateParam = <K extends keyof DuplicateQuery>(name: K) => DuplicateQuery[K];

// rule: duplicate-payment
/** At most one recent payment of the signature: the rule as a query, for a statement that embeds it. */
export function recentPaymentOfSignature(qb: Kysely<Database>, p: DuplicateParam) {
  const s: DuplicateQuery = {
    mid: p('mid'),
    fingerprint: p('fingerprint'),
    amount: p('amount'),
    type: p('type'),
    operation: p('operation'),
    since: p('since'),
  };
  return qb
    .selectFrom('payments')
    .select('id')
    .where('mid', '=', s.mid)
    .where('fingerprint', '=', s.fingerprint)
    .where('amount_cents', '=', s.amount)
    .where('transaction_type', '=', s.type)
    .where('operation', '=', s.operation)
    .where('created_at', '>=', s.since)
    .where((eb) => eb.or([eb('status', '=', 'approved'), eb('status', '=', 'pending')]))
    .limit(1);
}

/** The rule's query, compiled once per dialect. */
export const selectDuplicate = prepare<DuplicateQuery, { id: number }>((qb, p) =>
  recentPaymentOfSignature(qb, p),
);

export function duplicateRefusal(): DomainError {
  return new DomainError(ResponseCode.DuplicatePayment, [
    'A payment with the same card, amount and type was made within the duplicate window; send ForceDuplication to run it',
  ]);
}
