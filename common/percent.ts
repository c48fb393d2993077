/**
 * Percentages of amounts in integer cents, for the lane's tax, the tax classes of a ticket (added to a
 * price, or contained in a tax-inclusive one), percent discounts, tip presets, and the bounds a manager
 * sets (the pre-authorization tip, the discount a cashier may give). A rate is a percent with at most four decimals (8.875 %), read from its decimal digits so no
 * binary fraction enters the sum, and the product is exact (BigInt): 30.00 at 9.95 % is 298.5 cents
 * exactly, which rounds half up to 2.99 — the screen's preview and the core's charge are this one rule.
 */

/** Decimals a rate may have: 8.875 % is fine, 8.87501 % is refused. */
export const MAX_RATE_DECIMALS = 4;

const UNITS_PER_PERCENT = 10n ** BigInt(MAX_RATE_DECIMALS);

/**
 * A percent as an integer count of 1/10,000 of a percent, from its shortest decimal text (`String(9.95)`
 * is `"9.95"`, the digits that were typed). Undefined for a negative, non-finite or over-precise rate.
 */
export function rateUnits(percent: number): bigint | undefined {
  if (typeof percent !== 'number' || !Number.isFinite(percent) || percent < 0) return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(String(percent));
  if (!m?.[1]) return undefined; // exponent forms (1e-7, 1e21)
  const decimals = m[2] ?? '';
  if (decimals.length > MAX_RATE_DECIMALS) return undefined;
  return BigInt(m[1]) * UNITS_PER_PERCENT + BigInt(decimals.padEnd(MAX_RATE_DECIMALS, '0'));
}

/** True when `percent` is a rate this module can apply exactly (at most four decimals, not negative). */
export function isExactRate(percent: number): boolean {
  return rateUnits(percent) !== undefined;
}

function cents(value: number, name: string): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${name} must be integer cents`);
  return BigInt(value);
}

function units(percent: number): bigint {
  const u = rateUnits(percent);
  if (u === undefined) throw new RangeError('a rate is a percent with at most four decimals, not negative');
  return u;
}

/**
 * `percent` % of `amountCents`, rounded half up to the cent on the exact product (half away from zero
 * for a negative amount). Throws RangeError for a non-integer amount or an inexact rate.
 */
export function percentOfCents(amountCents: number, percent: number): number {
  const n = cents(amountCents, 'the amount') * units(percent);
  const d = 100n * UNITS_PER_PERCENT;
  const magnitude = n < 0n ? -n : n;
  const rounded = (2n * magnitude + d) / (2n * d);
  return Number(n < 0n ? -rounded : rounded);
}

// rule: tax-rounding
/** The lane's sales tax on a subtotal: the one rule the screen previews and the core charges. */
export function taxCents(subtotalCents: number, ratePercent: number): number {
  return percentOfCents(subtotalCents, ratePercent);
}

/** True when `partCents` is at most `percent` % of `wholeCents`, compared exactly (no rounding). */
export function withinPercent(partCents: number, wholeCents: number, percent: number): boolean {
  return (
    cents(partCents, 'the part') * 100n * UNITS_PER_PERCENT <= cents(wholeCents, 'the whole') * units(percent)
  );
}

/**
 * The tax contained in a tax-inclusive amount: `grossCents` × r / (100 + r), rounded half up to the cent
 * on the exact quotient (half away from zero for a negative amount). 11.00 at 10 % holds 1.00 of tax;
 * 10.00 at 8.25 % holds 0.76 (76.212… cents). The same half-up rule as `percentOfCents`, so a price with
 * tax included and the same price with tax added round alike. Throws RangeError as `percentOfCents` does.
 */
export function includedTaxCents(grossCents: number, ratePercent: number): number {
  const u = units(ratePercent);
  const n = cents(grossCents, 'the amount') * u;
  const d = 100n * UNITS_PER_PERCENT + u;
  const magnitude = n < 0n ? -n : n;
  const rounded = (2n * magnitude + d) / (2n * d);
  return Number(n < 0n ? -rounded : rounded);
}

/** True when `percent` is at most `limit`, compared on their decimal digits (8.875 vs 8.88: true). */
export function percentAtMost(percent: number, limit: number): boolean {
  return units(percent) <= units(limit);
}
