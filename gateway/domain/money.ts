/** Integer cents inside; JSON numbers with at most two decimals at the edge. */
export type Cents = number;

export const DEFAULT_AMOUNT_CEILING_CENTS = 99_999_999; // 999,999.99

export type CentsResult = { ok: true; cents: Cents } | { ok: false; reason: string };

// rule: amount-format
/**
 * Converts a JSON number to cents, refusing what a float would silently round: more than two decimals,
 * non-finite values, values past the ceiling. `10.005` is refused, `0.29` (28.999… in binary) is 29.
 */
export function toCents(
  value: unknown,
  options: { allowZero?: boolean; allowNegative?: boolean; ceilingCents?: Cents } = {},
): CentsResult {
  if (typeof value !== 'number') return { ok: false, reason: 'must be a JSON number' };
  if (!Number.isFinite(value)) return { ok: false, reason: 'must be a finite number' };
  const scaled = value * 100;
  const cents = Math.round(scaled);
  if (Math.abs(scaled - cents) > 1e-6 * Math.max(1, Math.abs(scaled))) {
    return { ok: false, reason: 'must have at most two decimals' };
  }
  if (cents === 0 && !options.allowZero) return { ok: false, reason: 'must be greater than zero' };
  if (cents < 0 && !options.allowNegative) return { ok: false, reason: 'must not be negative' };
  const ceiling = options.ceilingCents ?? DEFAULT_AMOUNT_CEILING_CENTS;
  if (Math.abs(cents) > ceiling) return { ok: false, reason: `must not exceed ${formatCents(ceiling)}` };
  return { ok: true, cents: cents === 0 ? 0 : cents };
}

/** Cents back to the JSON number of the interface: 1999 → 19.99. */
export function fromCents(cents: Cents): number {
  return cents / 100;
}

/** en-US currency text without a symbol: 1234567 → "12,345.67". */
export function formatCents(cents: Cents): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** A percentage in hundredths of a percent (350 = 3.50 %) of an amount, rounded half up to the cent. */
export function percentOf(cents: Cents, basisPoints: number): Cents {
  return Math.floor((cents * basisPoints + 5_000) / 10_000);
}

export function sumCents(...parts: (Cents | undefined)[]): Cents {
  let total = 0;
  for (const p of parts) total += p ?? 0;
  return total;
}
