/**
 * Integer cents inside the terminal; JSON numbers with at most two decimals on the gateway's wire
 * (docs/decisions.md#money). `cents / 100` is the correctly rounded double of a two-decimal value, and
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

/** `$1,234.56` for words people read (the audit log): the screens' own format, not a count of cents. */
export function dollars(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const [whole = '0', frac = '00'] = formatCents(Math.abs(cents)).split('.');
  return `${sign}$${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${frac}`;
}

/**
 * An amount the gateway sends as en-US text (gift and EBT `Balance`: `"1,234.56"`) to cents, from its
 * digits (never through a float). Thousands separators must be in their places; at most two decimals.
 * Undefined for anything else, so a changed format shows as "unknown", never as a wrong balance.
 */
export function centsFromText(text: string | undefined | null): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = /^(-)?\$?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m?.[2]) return undefined;
  const cents = Number(m[2].replace(/,/g, '')) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return undefined;
  return m[1] ? -cents : cents;
}
