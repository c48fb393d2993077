/**
 * GS1 check digits (GS1 General Specifications §7.9).
 *
 * - The standard mod-10 check digit of every GS1 key (§7.9.1): GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13),
 *   GTIN-14, SSCC. Weights 3 and 1 alternate from the RIGHT, the digit next to the check digit weighing 3,
 *   whatever the length, so one function serves every length.
 * - The price (or measure) verifier digit of a variable measure item (§7.9.2 for four digits, §7.9.3 for
 *   five): each digit goes through a weighting table ("2-", "3", "5+", "5-": multiply, then add or subtract
 *   the product's tens digit, keep the units digit), so a swapped or misread price digit changes it.
 *
 * Callers: the barcode scan rule (barcode-scan.ts), UPC-E expansion (upc-e.ts), the price-embedded UPC-A
 * rule (upc-price-embedded.ts), the scanner simulators (their sample barcodes are computed, not typed).
 */

const DIGITS = /^\d+$/;

/** The §7.9.1 check digit for `payload` (the key without its check digit). */
export function gs1CheckDigit(payload: string): number {
  if (!DIGITS.test(payload)) throw new RangeError('a GS1 key is digits only');
  let sum = 0;
  // From the right: the rightmost payload digit weighs 3 (it sits next to the check digit).
  for (let i = payload.length - 1, weight = 3; i >= 0; i -= 1, weight = 4 - weight) {
    sum += (payload.charCodeAt(i) - 48) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

/** True when the last digit of `key` is its §7.9.1 check digit. */
export function hasValidGs1CheckDigit(key: string): boolean {
  if (key.length < 2 || !DIGITS.test(key)) return false;
  return gs1CheckDigit(key.slice(0, -1)) === key.charCodeAt(key.length - 1) - 48;
}

// §7.9.2 weighting factors, tabulated for each digit 0-9.
// "2-": 2 x d, minus the tens digit of the product.
const TWO_MINUS = [0, 2, 4, 6, 8, 9, 1, 3, 5, 7] as const;
// "3": units digit of 3 x d.
const THREE = [0, 3, 6, 9, 2, 5, 8, 1, 4, 7] as const;
// "5+": 5 x d, plus the tens digit of the product.
const FIVE_PLUS = [0, 5, 1, 6, 2, 7, 3, 8, 4, 9] as const;
// "5-": 5 x d, minus the tens digit of the product.
const FIVE_MINUS = [0, 5, 9, 4, 8, 3, 7, 2, 6, 1] as const;

const weigh = (table: readonly number[], digit: string): number => table[digit.charCodeAt(0) - 48] ?? 0;

/**
 * The price verifier digit of a four-digit price (§7.9.2): weights 2-, 2-, 3, 5-; the sum times 3, units
 * digit. The specification's worked example: price 2875 -> 9.
 */
export function priceVerifierDigit4(price: string): number {
  if (!/^\d{4}$/.test(price)) throw new RangeError('a four-digit price is four digits');
  const [a, b, c, d] = [...price] as [string, string, string, string];
  const sum = weigh(TWO_MINUS, a) + weigh(TWO_MINUS, b) + weigh(THREE, c) + weigh(FIVE_MINUS, d);
  return (sum * 3) % 10;
}

/**
 * The price verifier digit of a five-digit price (§7.9.3): weights 5+, 2-, 5-, 5+, 2-; ten minus the units
 * digit of the sum, and that result is the digit whose "5-" weighting equals it. Worked example: 14685 -> 7.
 */
export function priceVerifierDigit5(price: string): number {
  if (!/^\d{5}$/.test(price)) throw new RangeError('a five-digit price is five digits');
  const [a, b, c, d, e] = [...price] as [string, string, string, string, string];
  const sum =
    weigh(FIVE_PLUS, a) +
    weigh(TWO_MINUS, b) +
    weigh(FIVE_MINUS, c) +
    weigh(FIVE_PLUS, d) +
    weigh(TWO_MINUS, e);
  const target = (10 - (sum % 10)) % 10;
  return FIVE_MINUS.indexOf(target as (typeof FIVE_MINUS)[number]);
}
