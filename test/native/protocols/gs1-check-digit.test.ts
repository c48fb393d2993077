import { describe, expect, it } from 'vitest';
import {
  gs1CheckDigit,
  hasValidGs1CheckDigit,
  priceVerifierDigit4,
  priceVerifierDigit5,
} from '../../../native/protocols/gs1-check-digit';

describe('GS1 mod-10 check digit (General Specifications §7.9.1)', () => {
  it('computes the worked GTIN-13 example: 629104150021 -> 3', () => {
    // The specification's figure: weights 1,3,1,3... from the left for 12 digits, sum 57, 60 - 57 = 3.
    expect(gs1CheckDigit('629104150021')).toBe(3);
    expect(hasValidGs1CheckDigit('6291041500213')).toBe(true);
  });
  it('uses the same weights from the right for every key length (GTIN-8, GTIN-12, GTIN-13, SSCC)', () => {
    expect(gs1CheckDigit('9638507')).toBe(4); // EAN-8 96385074
    expect(gs1CheckDigit('03600024145')).toBe(7); // UPC-A 036000241457
    expect(gs1CheckDigit('890400021003')).toBe(7); // GTIN-13 8904000210037 (GS1 India's example)
    expect(gs1CheckDigit('37610425002123456')).toBe(9); // SSCC 376104250021234569
  });
  it('refuses a key whose check digit is off by one, or whose digits were swapped', () => {
    expect(hasValidGs1CheckDigit('6291041500214')).toBe(false);
    expect(hasValidGs1CheckDigit('036000241475')).toBe(false);
    expect(hasValidGs1CheckDigit('036000214457')).toBe(false);
  });
  it('is false for non-digits and too-short input, and refuses to compute on non-digits', () => {
    expect(hasValidGs1CheckDigit('03600024145A')).toBe(false);
    expect(hasValidGs1CheckDigit('7')).toBe(false);
    expect(hasValidGs1CheckDigit('')).toBe(false);
    expect(() => gs1CheckDigit('12 34')).toThrow(RangeError);
  });
});

describe('price verifier digits (§7.9.2 four digits, §7.9.3 five digits)', () => {
  it('computes the four-digit worked example: 2875 -> 9', () => {
    // 2 (2-) 4, 8 (2-) 5, 7 (3) 1, 5 (5-) 3: sum 13, times 3 = 39, units digit 9.
    expect(priceVerifierDigit4('2875')).toBe(9);
  });
  it('computes the five-digit worked example: 14685 -> 6', () => {
    // 1 (5+) 5, 4 (2-) 8, 6 (5-) 7, 8 (5+) 4, 5 (2-) 9: sum 33, 40 - 33 = 7, and 7 is the 5- product of 6.
    expect(priceVerifierDigit5('14685')).toBe(6);
  });
  it('changes when one price digit is misread', () => {
    expect(priceVerifierDigit4('2876')).not.toBe(9);
    expect(priceVerifierDigit4('2885')).not.toBe(9);
  });
  it('takes exactly four (or five) digits', () => {
    expect(() => priceVerifierDigit4('287')).toThrow(RangeError);
    expect(() => priceVerifierDigit5('1468')).toThrow(RangeError);
    expect(() => priceVerifierDigit4('28a5')).toThrow(RangeError);
  });
});
