/**
 * What a card paid, the one sum of a payment's amount columns. Interface, Transaction report record:
 * "TotalAmount = base + tax + surcharge + card difference + tip, cash back excluded"; Refund fields: "Total
 * refunds must not exceed the original amount". Two figures, because cash back leaves the store as cash:
 *
 * - `totalAmountCents`: the interface's TotalAmount, cash back excluded. What a refund can give back (the
 *   refund ceiling), what a preauthorization holds (a hold has no cash back), what the Report group shows.
 * - `chargedCents`: what the card was charged, TotalAmount plus cash back. What a void or a reversal gives
 *   back at the processor, what a processor is asked to authorize, and what a batch's sales count
 *   (settlement, the Reporting group, statements).
 *
 * `chargedCentsSql` is `chargedCents` for a query over the payments table, so the figures a report sums
 * are the ones the code computes.
 */
import { sql, type RawBuilder } from 'kysely';
import type { PaymentsTable } from '../../storage/schema';
import type { Cents } from '../money';

export type AmountColumns = Pick<
  PaymentsTable,
  'amount_cents' | 'tax_cents' | 'tip_cents' | 'surcharge_cents' | 'card_difference_cents' | 'cashback_cents'
>;

/** The interface's TotalAmount: base + tax + tip + surcharge + card difference, cash back excluded. */
export function totalAmountCents(p: Omit<AmountColumns, 'cashback_cents'>): Cents {
  return p.amount_cents + p.tax_cents + p.tip_cents + p.surcharge_cents + p.card_difference_cents;
}

/** Everything the card was charged: TotalAmount plus cash back. */
export function chargedCents(p: AmountColumns): Cents {
  return totalAmountCents(p) + p.cashback_cents;
}

/** A payment's amount columns, in the order the payments table lists them. */
export const AMOUNT_COLUMNS = [
  'amount_cents',
  'tax_cents',
  'tip_cents',
  'surcharge_cents',
  'card_difference_cents',
  'cashback_cents',
] as const satisfies readonly (keyof AmountColumns)[];

/** `chargedCents` of the payments row named `alias` in the query (unqualified columns without one). */
export function chargedCentsSql(alias?: string): RawBuilder<number> {
  return sql<number>`(${sql.join(
    AMOUNT_COLUMNS.map((c) => sql.ref(alias ? `${alias}.${c}` : c)),
    sql` + `,
  )})`;
}
