/**
 * Card brand by issuer identification number (the leading digits of the PAN, ISO/IEC 7812-1), using the
 * brands' published BIN ranges. Works on partial PANs as they are typed: the longest prefix rule that the
 * digits so far can decide wins.
 */

export type CardBrand =
  'Visa' | 'Mastercard' | 'Amex' | 'Discover' | 'JCB' | 'Diners' | 'UnionPay' | 'Unknown';

type BinRange = { brand: Exclude<CardBrand, 'Unknown'>; from: number; to: number; digits: number };

const range = (brand: BinRange['brand'], from: number, to = from): BinRange => ({
  brand,
  from,
  to,
  digits: String(from).length,
});

// Ordered most specific first: the Discover co-brand range 622126-622925 sits inside UnionPay's 62.
const RANGES: readonly BinRange[] = [
  range('Discover', 622126, 622925),
  range('Discover', 6011),
  range('Discover', 644, 649),
  range('Discover', 65),
  range('UnionPay', 62),
  range('JCB', 3528, 3589),
  range('Diners', 300, 305),
  range('Diners', 36),
  range('Diners', 38, 39),
  range('Amex', 34),
  range('Amex', 37),
  range('Mastercard', 2221, 2720),
  range('Mastercard', 51, 55),
  range('Visa', 4),
];

/** Spaces and dashes (as printed on the card) are ignored; any other non-digit gives 'Unknown'. */
export function detectBrand(pan: string): CardBrand {
  const digits = pan.replace(/[ -]/g, '');
  if (!/^\d+$/.test(digits)) return 'Unknown';
  for (const r of RANGES) {
    if (digits.length < r.digits) continue;
    const prefix = Number(digits.slice(0, r.digits));
    if (prefix >= r.from && prefix <= r.to) return r.brand;
  }
  return 'Unknown';
}
