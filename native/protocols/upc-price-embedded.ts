import { priceVerifierDigit4 } from './gs1-check-digit';

/**
 * Price-embedded UPC-A: number system 2, the variable measure items a store labels itself (meat, deli,
 * produce weighed at the counter). GS1 General Specifications §2.1.14.2 (restricted circulation numbers
 * for variable measure retail items) leaves the layout after the prefix to the GS1 Member Organisation and
 * shows the two structures in use (its figure of alternative data structures):
 *
 *   'item5-verifier-price4' : 2  I I I I I  V  P P P P  C   item code, price verifier digit, price
 *   'item5-price5'          : 2  I I I I I  P P P P P  C    item code, price (no verifier digit)
 *
 * The default is the first: the specification says a price verifier digit SHOULD be used, and it is what a
 * US store's scale prints by default. The verifier is §7.9.2's four-digit price check. The price carries an
 * implied decimal point two places from the right in the lane's currency, so its digits ARE the cents.
 * The GTIN check digit (C) is the barcode rule's business (barcode-scan.ts) and is verified before this runs.
 *
 * EAN-13 restricted circulation prefixes 20-29 carry national layouts (e.g. GS1 UK's 20XXX RR V PPPP);
 * they are not read here: an EAN-13 with such a prefix is an ordinary item code.
 */

export type PriceEmbeddedLayout = 'item5-verifier-price4' | 'item5-price5';

export const DEFAULT_PRICE_EMBEDDED_LAYOUT: PriceEmbeddedLayout = 'item5-verifier-price4';

export type PriceEmbedded = {
  /** The five-digit item code the store assigned (what the catalog looks up). */
  itemCode: string;
  /** The embedded price, integer cents. */
  priceCents: number;
};

export type PriceEmbeddedReading =
  | { kind: 'not-price-embedded' }
  | ({ kind: 'price-embedded' } & PriceEmbedded)
  | { kind: 'invalid'; reason: string };

/** Reads a twelve-digit UPC-A (check digit already verified) as a price-embedded code if it is one. */
export function readPriceEmbeddedUpcA(
  upcA: string,
  layout: PriceEmbeddedLayout = DEFAULT_PRICE_EMBEDDED_LAYOUT,
): PriceEmbeddedReading {
  if (!/^\d{12}$/.test(upcA) || upcA[0] !== '2') return { kind: 'not-price-embedded' };
  const itemCode = upcA.slice(1, 6);
  if (layout === 'item5-price5') {
    return { kind: 'price-embedded', itemCode, priceCents: Number(upcA.slice(6, 11)) };
  }
  const verifier = upcA.charCodeAt(6) - 48;
  const price = upcA.slice(7, 11);
  if (priceVerifierDigit4(price) !== verifier) {
    return {
      kind: 'invalid',
      reason: 'the price on the label does not match its price check digit: a misread, scan it again',
    };
  }
  return { kind: 'price-embedded', itemCode, priceCents: Number(price) };
}
