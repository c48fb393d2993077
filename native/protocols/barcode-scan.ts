import { parseAimIdentifier, splitAimIdentifier, symbologyOfAim, type Symbology } from './aim-symbology-id';
import { hasValidGs1CheckDigit } from './gs1-check-digit';
import { expandUpcE } from './upc-e';
import {
  DEFAULT_PRICE_EMBEDDED_LAYOUT,
  readPriceEmbeddedUpcA,
  type PriceEmbedded,
  type PriceEmbeddedLayout,
} from './upc-price-embedded';

/**
 * What a scan is: the one rule every scanner kind (serial, HID POS, keyboard wedge) applies to what it
 * read, so a misread is refused the same way whatever brought it.
 *
 * - EAN/UPC (UPC-A, UPC-E, EAN-13, EAN-8) carry a GS1 check digit (General Specifications §7.9.1): a scan
 *   whose check digit does not match is a misread and is refused with a clear message, never looked up.
 *   UPC-E is checked on its UPC-A expansion (upc-e.ts); a UPC-A of number system 2 is price-embedded
 *   (upc-price-embedded.ts) and its price verifier digit is checked too.
 * - Every other symbology (Code 128, GS1-128, QR, ...) passes as it came: its own check characters are
 *   verified by the scanner's decoder and are not sent, so there is nothing left to verify here.
 * - A scan carries no amount. The one price it can carry is a price-embedded label's item price, for the
 *   ticket line of that item.
 *
 * The symbology comes from the AIM identifier when the scanner sends one (aim-symbology-id.ts); without
 * one, from the data's shape: 12 digits UPC-A, 13 EAN-13, 8 EAN-8 when its check digit holds, else UPC-E
 * when that holds. Both can hold for one 8-digit code, so a store with UPC-E labels turns identifiers on.
 */

export type BarcodeScanReading = {
  symbology: Symbology;
  /** The symbol's data without identifier or suffix: the digits as printed for EAN/UPC, text as-is otherwise. */
  data: string;
  /** The identifier the scanner sent (`]E0`), if any. */
  aimId?: string;
  /** False: a misread or unusable scan; `problem` says why in words a cashier can act on. */
  validated: boolean;
  /** Who verified it: this rule (EAN/UPC check digits), or the scanner's decoder alone. */
  checkedBy: 'check-digit' | 'scanner';
  problem?: string;
  /** EAN/UPC only: the GTIN as a 14-digit key (GS1: right-justified, zero-filled), what a catalog indexes. */
  gtin?: string;
  /** A UPC-A of number system 2: the item code and the price printed into the label. */
  priceEmbedded?: PriceEmbedded;
};

export type BarcodeScanOptions = {
  /** The identifier when it came apart from the text (HID POS report bytes). */
  aimId?: string;
  /** How a number-system-2 UPC-A is laid out. Default: item code, price verifier digit, 4-digit price. */
  priceEmbeddedLayout?: PriceEmbeddedLayout;
};

/** Longer than any 1D code and than a QR code a counter scanner reads in one go (a ticket line is not a file). */
export const MAX_SCAN_LENGTH = 4096;

const MISREAD = 'the check digit does not match: a misread, scan it again';

type EanUpc = 'upc-a' | 'upc-e' | 'ean-13' | 'ean-8';

function refused(
  symbology: Symbology,
  data: string,
  problem: string,
  aimId: string | undefined,
  checkedBy: BarcodeScanReading['checkedBy'] = 'check-digit',
): BarcodeScanReading {
  return { symbology, data, validated: false, checkedBy, problem, ...(aimId ? { aimId } : {}) };
}

function gtin14(digits: string): string {
  return digits.padStart(14, '0');
}

function eanUpc(
  symbology: EanUpc,
  digits: string,
  aimId: string | undefined,
  layout: PriceEmbeddedLayout,
): BarcodeScanReading {
  const base = { symbology, data: digits, checkedBy: 'check-digit' as const, ...(aimId ? { aimId } : {}) };
  if (symbology === 'upc-e') {
    const x = expandUpcE(digits);
    return x.ok
      ? { ...base, validated: true, gtin: gtin14(x.upcA) }
      : { ...base, validated: false, problem: x.reason };
  }
  if (!hasValidGs1CheckDigit(digits)) return { ...base, validated: false, problem: MISREAD };
  const reading: BarcodeScanReading = { ...base, validated: true, gtin: gtin14(digits) };
  if (symbology !== 'upc-a') return reading;
  const p = readPriceEmbeddedUpcA(digits, layout);
  if (p.kind === 'invalid') return { ...base, validated: false, problem: p.reason };
  if (p.kind === 'price-embedded') reading.priceEmbedded = { itemCode: p.itemCode, priceCents: p.priceCents };
  return reading;
}

/** `]E0`: EAN-13, UPC-A (12 digits, or 13 with a leading 0) or UPC-E (8 digits). `]E4`: EAN-8. */
function fromEanUpcIdentifier(modifier: string, digits: string): { kind: EanUpc } | { problem: string } {
  if (!/^\d+$/.test(digits)) return { problem: 'an EAN/UPC code is digits only: a misread, scan it again' };
  if (modifier === '4')
    return digits.length === 8 ? { kind: 'ean-8' } : { problem: 'an EAN-8 code is 8 digits' };
  if (modifier !== '0') return { problem: 'add-on codes are not read: scan the main code' };
  if (digits.length === 13) return { kind: digits.startsWith('0') ? 'upc-a' : 'ean-13' };
  if (digits.length === 12) return { kind: 'upc-a' };
  if (digits.length === 8) return { kind: 'upc-e' };
  return { problem: 'an EAN/UPC code is 8, 12 or 13 digits: a misread, scan it again' };
}

/** Reads one scan: the text a scanner sent, without its suffix (CR/LF, Tab) and with any AIM identifier. */
export function readBarcodeScan(text: string, options: BarcodeScanOptions = {}): BarcodeScanReading {
  const layout = options.priceEmbeddedLayout ?? DEFAULT_PRICE_EMBEDDED_LAYOUT;
  const split = options.aimId === undefined ? splitAimIdentifier(text) : undefined;
  const aim = options.aimId !== undefined ? parseAimIdentifier(options.aimId) : split?.aim;
  const data = split ? split.data : text;
  const aimId = aim?.id;
  if (data === '')
    return refused(aim ? symbologyOfAim(aim) : 'unknown', '', 'nothing was read', aimId, 'scanner');
  if (data.length > MAX_SCAN_LENGTH)
    return refused('unknown', data.slice(0, 32), 'the scan is too long to be a label', aimId, 'scanner');

  if (aim?.code === 'E') {
    const r = fromEanUpcIdentifier(aim.modifier, data);
    if ('problem' in r) return refused('unknown', data, r.problem, aimId);
    const kind = r.kind;
    // A UPC-A sent as 13 digits (its GTIN-13 form) is shown and looked up as the 12 on its label.
    const digits = kind === 'upc-a' && data.length === 13 ? data.slice(1) : data;
    return eanUpc(kind, digits, aimId, layout);
  }
  if (aim)
    return { symbology: symbologyOfAim(aim), data, aimId: aim.id, validated: true, checkedBy: 'scanner' };

  if (/^\d{12}$/.test(data)) return eanUpc('upc-a', data, undefined, layout);
  if (/^\d{13}$/.test(data))
    return data.startsWith('0')
      ? eanUpc('upc-a', data.slice(1), undefined, layout)
      : eanUpc('ean-13', data, undefined, layout);
  if (/^\d{8}$/.test(data)) {
    if (hasValidGs1CheckDigit(data)) return eanUpc('ean-8', data, undefined, layout);
    const asUpcE = eanUpc('upc-e', data, undefined, layout);
    return asUpcE.validated ? asUpcE : eanUpc('ean-8', data, undefined, layout);
  }
  return { symbology: 'unknown', data, validated: true, checkedBy: 'scanner' };
}
