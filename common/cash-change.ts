/**
 * The change a cash tender gives, in integer cents: the one rule the cash form previews, the core records
 * and the receipt prints. A US drawer's largest bill is $100: change of more than that over the amount due
 * means the customer handed over at least one bill the sale did not need — almost always a mistyped amount
 * ("1000" typed on top of a pre-filled $30.00 reads $300,010.00), so it is confirmed before it is taken.
 */

/** The largest bill a drawer takes ($100.00). */
export const LARGEST_BILL_CENTS = 10_000;

/** What goes back to the customer: what was handed over beyond what is due, never negative. */
export function changeDueCents(dueCents: number, tenderedCents: number): number {
  return Math.max(0, tenderedCents - dueCents);
}

// rule: cash-change
/** True when the change is more than the largest bill: the cashier confirms the cash handed over first. */
export function changeNeedsConfirmation(dueCents: number, tenderedCents: number): boolean {
  return changeDueCents(dueCents, tenderedCents) > LARGEST_BILL_CENTS;
}
