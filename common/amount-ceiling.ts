/**
 * A scan or a slip of the finger is not a sale: an amount above the lane's ceiling is confirmed by the
 * cashier before any tender starts. The ceiling is a manager's setting (the terminal keeps it with the
 * lane's sale settings); this is its default and the one comparison the screen makes with it.
 */

/** 1,000.00: above a day's ordinary counter sale, below what a scanned barcode's digits make. */
export const DEFAULT_CONFIRM_ABOVE_CENTS = 100_000;

// rule: amount-confirmation
/** True when `totalCents` (what the customer would pay) is above the ceiling. */
export function amountNeedsConfirmation(totalCents: number, ceilingCents: number): boolean {
  return totalCents > ceilingCents;
}
