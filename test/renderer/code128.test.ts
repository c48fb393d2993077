import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CODE128, code128Check, code128Widths, encodeCode128 } from '../../renderer/src/format/code128';

/** Widths as the bit strings the published tables print (1 = bar module, 0 = space module). */
function bits(widths: string | readonly number[]): string {
  return [...widths].map((w, i) => (i % 2 === 0 ? '1' : '0').repeat(Number(w))).join('');
}

/**
 * A reader's view of the symbol, written apart from the encoder: the widths cut into characters, each
 * looked up, the check verified, the code sets followed back to text.
 */
function decode(widths: readonly number[]): string {
  const byWidths = new Map<string, number>();
  for (let v = 0; v <= 106; v += 1) byWidths.set(code128Widths(v), v);
  const values: number[] = [];
  for (let i = 0; i + 6 <= widths.length - 1; i += 6) {
    const v = byWidths.get(widths.slice(i, i + 6).join(''));
    if (v === undefined) throw new Error(`no character at ${i}`);
    values.push(v);
  }
  if (values.at(-1) !== CODE128.stop || widths.at(-1) !== 2) throw new Error('no stop pattern');
  const check = values.at(-2) ?? -1;
  const data = values.slice(0, -2);
  let sum = data[0] ?? 0;
  data.forEach((v, i) => (sum += i === 0 ? 0 : v * i));
  if (sum % 103 !== check) throw new Error('check character does not match');
  let set = data[0] === CODE128.startC ? 'C' : data[0] === CODE128.startB ? 'B' : '?';
  let text = '';
  for (const v of data.slice(1)) {
    if (set === 'B' && v === CODE128.codeC) set = 'C';
    else if (set === 'C' && v === CODE128.codeB) set = 'B';
    else if (set === 'B') text += String.fromCharCode(v + 32);
    else if (set === 'C') text += String(v).padStart(2, '0');
    else throw new Error('unknown start');
  }
  return text;
}

describe('Code 128 (renderer/src/format/code128.ts)', () => {
  it('its table is every 11-module character with even bars: the 106 values, the stop and the reverse stop', () => {
    // "There are 108 possible 11-unit wide symbols, and the code uses all possible symbols": three bars
    // and three spaces of 1-4 modules, 11 in all, the bars an even number of modules.
    const all: string[] = [];
    const walk = (prefix: number[]): void => {
      if (prefix.length === 6) {
        const sum = prefix.reduce((s, w) => s + w, 0);
        const bars = (prefix[0] ?? 0) + (prefix[2] ?? 0) + (prefix[4] ?? 0);
        if (sum === 11 && bars % 2 === 0) all.push(prefix.join(''));
        return;
      }
      for (let w = 1; w <= 4; w += 1) walk([...prefix, w]);
    };
    walk([]);
    expect(all).toHaveLength(108);
    const table = Array.from({ length: 107 }, (_, v) => code128Widths(v));
    // The reverse stop is the stop read right to left, without its final bar.
    const reverseStop = '211133';
    expect(new Set([...table, reverseStop]).size).toBe(108);
    expect([...table, reverseStop].sort()).toEqual([...all].sort());
  });

  it('matches the published patterns: "0", the start characters, the stop with its termination bar', () => {
    // Code 128 on Wikipedia: the ASCII character "0" (value 16) is 10011101100.
    expect(bits(code128Widths(16))).toBe('10011101100');
    // barcodeisland.com's Code 128 page: Start-B 11010010000, Start-C 11010011100, stop 11000111010 + bar 11.
    expect(bits(code128Widths(CODE128.startB))).toBe('11010010000');
    expect(bits(code128Widths(CODE128.startC))).toBe('11010011100');
    expect(bits([...code128Widths(CODE128.stop)].map(Number).concat(2))).toBe('1100011101011');
  });

  it('computes the check character of the published worked examples', () => {
    // Wikipedia, "PJJ123C" in code set A: 103 + 48 + 84 + 126 + 68 + 90 + 114 + 245 = 878, remainder 54.
    expect(code128Check([103, 48, 42, 42, 17, 18, 19, 35])).toBe(54);
    // barcodeisland.com, "HI345678" (A, then C): 1406 mod 103 = 67.
    expect(code128Check([103, 40, 41, 99, 34, 56, 78])).toBe(67);
    // IDAutomation's GS1-128 "(01)60000116030603": Start C, FNC1, pairs: 586 mod 103 = 71.
    expect(code128Check([105, 102, 1, 60, 0, 1, 16, 3, 6, 3])).toBe(71);
    // barcoderesource.com, "abcdef" in code set B: 1539 mod 103 = 97.
    expect(encodeCode128('abcdef').check).toBe(97);
    expect(encodeCode128('abcdef').values).toEqual([104, 65, 66, 67, 68, 69, 70, 97, 106]);
  });

  it('uses code set C for long digit runs, as Annex E says', () => {
    // "HI345678": B for the letters, C for the six digits at the end (barcodeisland's example, started in B).
    expect(encodeCode128('HI345678').values.slice(0, -2)).toEqual([104, 40, 41, 99, 34, 56, 78]);
    // Four or more leading digits start in C; an odd run leaves its last digit to B.
    expect(encodeCode128('12345A').values.slice(0, -2)).toEqual([105, 12, 34, 100, 21, 33]);
    // Three digits stay in B.
    expect(encodeCode128('A123').values.slice(0, -2)).toEqual([104, 33, 17, 18, 19]);
    // An odd run of six or more inside the text: its first digit in B, then pairs.
    expect(encodeCode128('T-1234567-X').values.slice(0, -2)).toEqual([
      104, 52, 13, 17, 99, 23, 45, 67, 100, 13, 56,
    ]);
  });

  it('reads back as exactly the text: a receipt number, and any printable text', () => {
    const ticketId = 'T-mb1x2y3z-1a2b3c4d';
    const symbol = encodeCode128(ticketId);
    expect(decode(symbol.widths)).toBe(ticketId);
    expect(symbol.modules).toBe(symbol.widths.reduce((s, w) => s + w, 0));
    // Each character is 11 modules; the stop pattern 13.
    expect(symbol.modules).toBe((symbol.values.length - 1) * 11 + 13);
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 40,
        }),
        (text) => {
          expect(decode(encodeCode128(text).widths)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses what it cannot encode', () => {
    expect(() => encodeCode128('')).toThrow(RangeError);
    expect(() => encodeCode128('café')).toThrow(RangeError);
    expect(() => encodeCode128('a\nb')).toThrow(RangeError);
    expect(() => code128Widths(107)).toThrow(RangeError);
  });
});
