import { CATALOG_LIMITS } from '../../common/bridge/retail-limits';
import { readBarcodeScan, type BarcodeScanReading } from '../../native/protocols/barcode-scan';
import { hasValidGs1CheckDigit } from '../../native/protocols/gs1-check-digit';
import { hasControlCharacter } from './plain-text';

/**
 * How the catalog keys a barcode, the same way whether a manager typed it, a CSV row carries it, or a
 * scanner read it (native/protocols/barcode-scan.ts is the scan rule this applies):
 *
 * - A code of 8, 12, 13 or 14 digits is a GTIN (EAN-8 or UPC-E, UPC-A, EAN-13, GTIN-14) and must carry
 *   its GS1 check digit (General Specifications §7.9.1): a wrong one is refused with the same words the
 *   scanner uses. It is keyed by its 14-digit GTIN (right-justified, zero-filled), so a UPC-A found on a
 *   label as 12 digits and scanned as an EAN-13 (`0` + the 12) is one key, and a UPC-E is keyed by the
 *   UPC-A it expands to. Eight digits are an EAN-8 when that check digit holds, else a UPC-E (the scan
 *   rule's order).
 * - A UPC-A of number system 2 is a price-embedded label, not an item's barcode: the item gets the label's
 *   five-digit item code instead (its `embeddedCode`).
 * - Anything else is Code 128 text, keyed as it is (no check character reaches the terminal).
 *
 * `|` separates barcodes in a CSV cell, so it cannot be part of one; nor can control characters.
 */

export type BarcodeKey = { kind: 'gtin' | 'text'; code: string };

export type CatalogBarcode = BarcodeKey & {
  /** As it is shown and exported: the code as entered (digits as printed on the label). */
  label: string;
};

/** A refusal's words and their id in the screens' catalogs (`errors`, `catalog.*`), with the label. */
export type CatalogBarcodeResult =
  | { ok: true; barcode: CatalogBarcode }
  | { ok: false; problem: string; messageId: string; params: Record<string, string | number> };

function refuse(
  label: string,
  why: string,
  messageId: string,
  params: Record<string, string | number> = {},
): CatalogBarcodeResult {
  return { ok: false, problem: `Barcode ${label}: ${why}.`, messageId, params: { label, ...params } };
}

/** A barcode as typed or read from a CSV cell, made into its catalog key (or refused with the reason). */
export function catalogBarcode(text: string): CatalogBarcodeResult {
  const label = text.trim();
  if (label === '')
    return { ok: false, problem: 'A barcode cannot be empty.', messageId: 'barcodeEmpty', params: {} };
  if (label.length > CATALOG_LIMITS.barcodeLength)
    return refuse(
      label.slice(0, 20) + '…',
      `a barcode is at most ${CATALOG_LIMITS.barcodeLength} characters`,
      'barcodeTooLong',
      { max: CATALOG_LIMITS.barcodeLength },
    );
  if (hasControlCharacter(label) || label.includes('|'))
    return refuse(label, 'a barcode cannot hold control characters or "|"', 'barcodeCharacters');
  if (/^\d{14}$/.test(label))
    return hasValidGs1CheckDigit(label)
      ? { ok: true, barcode: { kind: 'gtin', code: label, label } }
      : refuse(label, 'the check digit does not match: check the number', 'barcodeCheckDigit');
  if (/^(\d{8}|\d{12}|\d{13})$/.test(label)) {
    const r = readBarcodeScan(label);
    if (!r.validated || !r.gtin)
      return refuse(
        label,
        checkDigitWords(r),
        /check digit/.test(r.problem ?? 'check digit') ? 'barcodeCheckDigit' : 'barcodeInvalid',
      );
    if (r.priceEmbedded)
      return refuse(
        label,
        'a UPC-A starting with 2 is a price-embedded label: give the item its 5-digit price-embedded code instead',
        'barcodePriceEmbedded',
      );
    return { ok: true, barcode: { kind: 'gtin', code: r.gtin, label } };
  }
  return { ok: true, barcode: { kind: 'text', code: label, label } };
}

function checkDigitWords(r: BarcodeScanReading): string {
  // The scan rule's words speak to a cashier at the scanner; a manager typing a number checks it instead.
  return (r.problem ?? 'the check digit does not match').replace(
    /: a misread, scan it again$/,
    ': check the number',
  );
}

/**
 * The key a scan looks up: a valid EAN/UPC by its GTIN, any other symbology by its text. Undefined for a
 * refused scan (a misread is never looked up).
 */
export function scanKey(
  scan: Pick<BarcodeScanReading, 'validated' | 'gtin' | 'data'>,
): BarcodeKey | undefined {
  if (!scan.validated) return undefined;
  if (scan.gtin) return { kind: 'gtin', code: scan.gtin };
  return { kind: 'text', code: scan.data };
}
