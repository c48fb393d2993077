/**
 * Code 128 (ISO/IEC 15417), drawn on screen for the receipt's code: the receipt printer draws its own from
 * the same text (ESC/POS `GS k 73`), so both read back as exactly the text given.
 *
 * A symbol is a start character, the data characters, a modulo-103 check character and the stop pattern.
 * Each character is three bars and three spaces, each 1 to 4 modules wide, 11 modules in all, its bars an
 * even number of modules (the self-check every reader applies); the stop pattern is 13 modules (its last
 * bar lets it be read in either direction). The check character is the start's value plus each data
 * character's value times its position (1, 2, …), modulo 103 (§4.7.2).
 *
 * Code set B takes printable ASCII (space to `~`); code set C takes pairs of digits, one character per pair.
 * The encoder follows the standard's Annex E: start in C when the text is two digits or opens with four or
 * more (an odd run leaves its last digit to B); in B, switch to C for six or more digits (four at the
 * end), the odd one first in B. Nothing outside printable ASCII is encoded: it is refused.
 */

/** Bar and space widths of the values 0 to 106 (106: the stop's first six elements; its 2-module bar follows). */
const WIDTHS: readonly string[] = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '233111',
]; // prettier-ignore

export const CODE128 = {
  startB: 104,
  startC: 105,
  codeB: 100,
  codeC: 99,
  stop: 106,
} as const;

/** The bar and space widths of a value (0–106), for tests and drawing. */
export function code128Widths(value: number): string {
  const w = WIDTHS[value];
  if (w === undefined) throw new RangeError(`Code 128 has no value ${value}`);
  return w;
}

export type Code128Symbol = {
  /** Start, data, check and stop values, in order. */
  values: number[];
  /** The check character's value. */
  check: number;
  /** Module widths, bar first, alternating bar and space, the stop's final bar included. */
  widths: number[];
  /** Total modules, quiet zones not included. */
  modules: number;
};

const isDigit = (c: string): boolean => c >= '0' && c <= '9';

function digitRun(text: string, at: number): number {
  let n = 0;
  while (at + n < text.length && isDigit(text[at + n] ?? '')) n += 1;
  return n;
}

/** The values of `text` with its start character (no check, no stop). */
function dataValues(text: string): number[] {
  for (const c of text) {
    const code = c.charCodeAt(0);
    if (c.length !== 1 || code < 0x20 || code > 0x7e)
      throw new RangeError('Code 128 here encodes printable ASCII only');
  }
  const values: number[] = [];
  let set: 'B' | 'C';
  let i = 0;
  const lead = digitRun(text, 0);
  if (lead >= 4 || (lead === 2 && text.length === 2)) {
    set = 'C';
    values.push(CODE128.startC);
  } else {
    set = 'B';
    values.push(CODE128.startB);
  }
  while (i < text.length) {
    if (set === 'C') {
      const run = digitRun(text, i);
      if (run >= 2) {
        values.push(Number(text.slice(i, i + 2)));
        i += 2;
        continue;
      }
      set = 'B';
      values.push(CODE128.codeB);
      continue;
    }
    const run = digitRun(text, i);
    const atEnd = i + run === text.length;
    // An odd run leaves its first digit in B, so C takes whole pairs.
    if (run >= 6 || (atEnd && run >= 4)) {
      if (run % 2 === 1) {
        values.push(text.charCodeAt(i) - 32);
        i += 1;
      }
      set = 'C';
      values.push(CODE128.codeC);
      continue;
    }
    values.push(text.charCodeAt(i) - 32);
    i += 1;
  }
  return values;
}

// rule: code128-symbol
/** The modulo-103 check character of a start and its data values. */
export function code128Check(values: readonly number[]): number {
  let sum = values[0] ?? 0;
  for (let i = 1; i < values.length; i += 1) sum += (values[i] ?? 0) * i;
  return sum % 103;
}

/** The whole symbol for `text` (printable ASCII, at least one character). */
export function encodeCode128(text: string): Code128Symbol {
  if (text.length === 0) throw new RangeError('Code 128 needs at least one character');
  const data = dataValues(text);
  const check = code128Check(data);
  const values = [...data, check, CODE128.stop];
  const widths: number[] = [];
  for (const v of values) for (const w of code128Widths(v)) widths.push(Number(w));
  widths.push(2);
  return { values, check, widths, modules: widths.reduce((s, w) => s + w, 0) };
}
