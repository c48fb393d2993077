import { aimIdentifierFor, type Symbology } from '../protocols/aim-symbology-id';
import { gs1CheckDigit, priceVerifierDigit4 } from '../protocols/gs1-check-digit';

/**
 * Labels the scanner simulators scan: good codes of each retail symbology, price-embedded labels, and
 * misreads (a check digit that does not match) that the terminal must refuse. The EAN/UPC check digits
 * are computed here from their payloads (GS1 §7.9.1, §7.9.2), so a label can only be a misread on purpose.
 */
export type TestBarcode = {
  symbology: Symbology;
  /** The data as the symbol encodes it (no identifier, no suffix). */
  data: string;
  /** What the terminal should make of it, for the simulator panel. */
  note: string;
};

const withCheck = (payload: string): string => `${payload}${gs1CheckDigit(payload)}`;
/** A number-system-2 UPC-A: item code, price verifier digit, four-digit price (cents), check digit. */
const priceLabel = (item: string, price: string): string =>
  withCheck(`2${item}${priceVerifierDigit4(price)}${price}`);
/** The same label with its check digit (or price verifier) deliberately wrong: a misread. */
const misread = (code: string, at: number): string =>
  `${code.slice(0, at)}${(Number(code[at]) + 1) % 10}${code.slice(at + 1)}`;

const upcA = withCheck('03600024145');
const deli = priceLabel('04711', '0499');

export const TEST_BARCODES: readonly TestBarcode[] = [
  { symbology: 'upc-a', data: upcA, note: 'UPC-A, valid' },
  { symbology: 'ean-13', data: withCheck('629104150021'), note: 'EAN-13, valid' },
  { symbology: 'ean-8', data: withCheck('9638507'), note: 'EAN-8, valid' },
  { symbology: 'upc-e', data: '04252614', note: 'UPC-E, valid (expands to 042100005264)' },
  { symbology: 'upc-a', data: deli, note: 'price-embedded: item 04711 at 4.99' },
  { symbology: 'upc-a', data: priceLabel('12345', '2875'), note: 'price-embedded: item 12345 at 28.75' },
  { symbology: 'code-128', data: 'TP-LOYALTY-00042', note: 'Code 128 text, passes as-is' },
  { symbology: 'upc-a', data: misread(upcA, 11), note: 'misread UPC-A: wrong check digit, refused' },
  { symbology: 'upc-a', data: misread(deli, 6), note: 'misread price label: price check fails, refused' },
];

/** The scanner's text for a label: the AIM identifier first when the scanner is set to send one. */
export function scannerText(barcode: Pick<TestBarcode, 'symbology' | 'data'>, withAim: boolean): string {
  const aim = withAim ? aimIdentifierFor(barcode.symbology) : undefined;
  return `${aim ?? ''}${barcode.data}`;
}
