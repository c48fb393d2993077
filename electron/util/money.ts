/**
 * Integer cents inside the terminal; JSON numbers with at most two decimals on the gateway's wire
 * (DESIGN.md "Money"). `cents / 100` is the correctly rounded double of a two-decimal value, and
 * JSON.stringify prints it back with at most two decimals, so nothing is lost either way.
 */

export function isCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function toWire(cents: number): number {
  return cents / 100;
}

/** A gateway amount back to cents; absent or non-finite amounts count as zero. */
export function fromWire(amount: number | undefined | null): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return 0;
  return Math.round(amount * 100);
}

/** `12.34` for receipts and messages (USD, no currency sign). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
