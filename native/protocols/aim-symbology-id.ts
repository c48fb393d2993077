/**
 * AIM symbology identifiers (ISO/IEC 15424, "data carrier identifiers"): a scanner set to send them puts
 * three characters before the data: `]`, a code character naming the symbology, and a modifier digit or
 * letter (e.g. `]E0` EAN/UPC, `]C0` Code 128, `]C1` GS1-128, `]Q1` QR). Serial and keyboard-wedge
 * scanners put them in the text; HID POS scanners carry them in the report's three Symbology Identifier
 * bytes (hid-pos-scanner.ts). With them, an 8-digit EAN-8 cannot be taken for a UPC-E, nor a 12-digit
 * Code 128 text for a UPC-A.
 *
 * Callers: the barcode scan rule (barcode-scan.ts), the HID POS report parser, the scanner simulators.
 */

export type Symbology =
  | 'upc-a'
  | 'upc-e'
  | 'ean-13'
  | 'ean-8'
  | 'code-128'
  | 'gs1-128'
  | 'code-39'
  | 'code-93'
  | 'codabar'
  | 'interleaved-2-of-5'
  | 'gs1-databar'
  | 'pdf417'
  | 'qr'
  | 'data-matrix'
  | 'aztec'
  /** No identifier and nothing the data's shape can tell. */
  | 'unknown';

export type AimIdentifier = {
  /** The three characters as sent, e.g. `]E0`. */
  id: string;
  code: string;
  modifier: string;
};

const AIM = /^\](.)([0-9A-Za-z])/;

/** Splits a leading AIM identifier off scanner text; `aim` is undefined when the text has none. */
export function splitAimIdentifier(text: string): { aim: AimIdentifier | undefined; data: string } {
  const m = AIM.exec(text);
  if (!m) return { aim: undefined, data: text };
  const code = m[1] as string;
  const modifier = m[2] as string;
  return { aim: { id: `]${code}${modifier}`, code, modifier }, data: text.slice(3) };
}

/** Parses a three-character identifier (`]E0`), e.g. from HID POS report bytes. */
export function parseAimIdentifier(id: string): AimIdentifier | undefined {
  const { aim, data } = splitAimIdentifier(id);
  return aim && data === '' ? aim : undefined;
}

// ISO/IEC 15424 code characters of the symbologies a retail counter meets. `E` (EAN/UPC) is resolved by
// the barcode rule from its modifier and the digits: `]E0` is EAN-13, UPC-A or UPC-E, `]E4` EAN-8.
const CODES: Readonly<Record<string, Symbology>> = {
  A: 'code-39',
  C: 'code-128',
  F: 'codabar',
  G: 'code-93',
  I: 'interleaved-2-of-5',
  L: 'pdf417',
  Q: 'qr',
  d: 'data-matrix',
  e: 'gs1-databar',
  z: 'aztec',
};

/**
 * The symbology an identifier names, for every code but `E` (which needs the data's length). Code 128
 * with modifier 1 is GS1-128 (FNC1 in the first position: the data are GS1 element strings).
 */
export function symbologyOfAim(aim: AimIdentifier): Symbology {
  if (aim.code === 'C' && aim.modifier === '1') return 'gs1-128';
  return CODES[aim.code] ?? 'unknown';
}

/** The identifier a scanner sends for a symbology (the simulators' side); undefined for `unknown`. */
export function aimIdentifierFor(symbology: Symbology): string | undefined {
  switch (symbology) {
    case 'upc-a':
    case 'upc-e':
    case 'ean-13':
      return ']E0';
    case 'ean-8':
      return ']E4';
    case 'gs1-128':
      return ']C1';
    // QR model 2 and Data Matrix ECC 200, the forms in use, carry modifier 1.
    case 'qr':
      return ']Q1';
    case 'data-matrix':
      return ']d1';
    case 'unknown':
      return undefined;
    default: {
      const entry = Object.entries(CODES).find(([, s]) => s === symbology);
      return entry ? `]${entry[0]}0` : undefined;
    }
  }
}
