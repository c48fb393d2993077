import { describe, expect, it } from 'vitest';
import {
  aimIdentifierFor,
  parseAimIdentifier,
  splitAimIdentifier,
} from '../../../native/protocols/aim-symbology-id';
import { readBarcodeScan } from '../../../native/protocols/barcode-scan';

describe('AIM symbology identifiers (ISO/IEC 15424)', () => {
  it('splits a leading identifier off the data', () => {
    expect(splitAimIdentifier(']E0036000241457')).toEqual({
      aim: { id: ']E0', code: 'E', modifier: '0' },
      data: '036000241457',
    });
    expect(splitAimIdentifier('036000241457')).toEqual({ aim: undefined, data: '036000241457' });
    expect(parseAimIdentifier(']C1')).toEqual({ id: ']C1', code: 'C', modifier: '1' });
    expect(parseAimIdentifier(']C1x')).toBeUndefined();
  });
  it('names the identifier a scanner sends for each symbology', () => {
    expect(aimIdentifierFor('ean-8')).toBe(']E4');
    expect(aimIdentifierFor('code-128')).toBe(']C0');
    expect(aimIdentifierFor('qr')).toBe(']Q1');
    expect(aimIdentifierFor('unknown')).toBeUndefined();
  });
});

describe('readBarcodeScan: check digits', () => {
  it('validates a UPC-A and gives its GTIN-14 for the catalog', () => {
    expect(readBarcodeScan('036000241457')).toEqual({
      symbology: 'upc-a',
      data: '036000241457',
      validated: true,
      checkedBy: 'check-digit',
      gtin: '00036000241457',
    });
  });
  it('refuses a misread UPC-A with a clear message, and does not offer it for lookup', () => {
    const r = readBarcodeScan('036000241458');
    expect(r).toMatchObject({ symbology: 'upc-a', validated: false });
    expect(r.problem).toMatch(/check digit does not match.*scan it again/);
    expect(r.gtin).toBeUndefined();
  });
  it('validates EAN-13 and EAN-8 (the GS1 worked example 6291041500213, EAN-8 96385074)', () => {
    expect(readBarcodeScan(']E06291041500213')).toMatchObject({
      symbology: 'ean-13',
      data: '6291041500213',
      aimId: ']E0',
      validated: true,
    });
    expect(readBarcodeScan(']E496385074')).toMatchObject({ symbology: 'ean-8', validated: true });
    expect(readBarcodeScan(']E496385075')).toMatchObject({ symbology: 'ean-8', validated: false });
  });
  it('takes a UPC-A sent as 13 digits under ]E0 as the 12 on its label', () => {
    expect(readBarcodeScan(']E00036000241457')).toMatchObject({
      symbology: 'upc-a',
      data: '036000241457',
      validated: true,
    });
  });
  it('validates a UPC-E on its expansion and keys it by the expanded GTIN', () => {
    expect(readBarcodeScan(']E004252614')).toMatchObject({
      symbology: 'upc-e',
      data: '04252614',
      validated: true,
      gtin: '00042100005264',
    });
    expect(readBarcodeScan(']E004252615')).toMatchObject({ symbology: 'upc-e', validated: false });
  });
  it('without an identifier, reads 8 digits as EAN-8 when that check holds, else as UPC-E', () => {
    expect(readBarcodeScan('96385074')).toMatchObject({ symbology: 'ean-8', validated: true });
    expect(readBarcodeScan('04252614')).toMatchObject({ symbology: 'upc-e', validated: true });
    // Neither holds: refused (as the EAN-8 it most likely is).
    expect(readBarcodeScan('04252615')).toMatchObject({ symbology: 'ean-8', validated: false });
  });
  it('refuses EAN/UPC data of a length no EAN/UPC has, or with letters', () => {
    expect(readBarcodeScan(']E01234567890')).toMatchObject({ validated: false });
    expect(readBarcodeScan(']E0036000A41457').problem).toMatch(/digits only/);
  });
});

describe('readBarcodeScan: price-embedded UPC-A', () => {
  it('rings the embedded price: item code and cents, never an amount of its own', () => {
    const r = readBarcodeScan(']E0212345928752');
    expect(r).toMatchObject({ symbology: 'upc-a', validated: true });
    expect(r.priceEmbedded).toEqual({ itemCode: '12345', priceCents: 2875 });
  });
  it('refuses a label whose price was misread (verifier digit) though its GTIN check holds', () => {
    // 2 12345 8 2875 with its own GTIN check digit 5: the GTIN holds, but 2875's verifier is 9, not 8.
    const r = readBarcodeScan('212345828755');
    expect(r).toMatchObject({ validated: false });
    expect(r.problem).toMatch(/price/);
  });
  it('uses the five-digit layout when the store says so', () => {
    expect(readBarcodeScan('204711004993', { priceEmbeddedLayout: 'item5-price5' }).priceEmbedded).toEqual({
      itemCode: '04711',
      priceCents: 499,
    });
  });
});

describe('readBarcodeScan: other symbologies pass as they came', () => {
  it('passes Code 128 text as-is, checked by the scanner', () => {
    expect(readBarcodeScan(']C0ABC-123 x/7')).toEqual({
      symbology: 'code-128',
      data: 'ABC-123 x/7',
      aimId: ']C0',
      validated: true,
      checkedBy: 'scanner',
    });
  });
  it('keeps a 12-digit Code 128 as Code 128 when the identifier says so (no UPC check applied)', () => {
    expect(readBarcodeScan(']C0036000241458')).toMatchObject({ symbology: 'code-128', validated: true });
  });
  it('names GS1-128 and QR from their identifiers', () => {
    expect(readBarcodeScan(']C101095011010209171719050810ABCD1234').symbology).toBe('gs1-128');
    expect(readBarcodeScan(']Q1https://example.test/x').symbology).toBe('qr');
  });
  it('passes text without identifier as unknown', () => {
    expect(readBarcodeScan('LOYALTY-42')).toMatchObject({ symbology: 'unknown', validated: true });
  });
  it('refuses an empty scan and a runaway one', () => {
    expect(readBarcodeScan('')).toMatchObject({ validated: false, problem: 'nothing was read' });
    expect(readBarcodeScan(']E0')).toMatchObject({ validated: false, problem: 'nothing was read' });
    expect(readBarcodeScan('x'.repeat(5000))).toMatchObject({ validated: false });
  });
  it('takes the identifier from outside the text when the transport carried it apart (HID POS)', () => {
    expect(readBarcodeScan('96385074', { aimId: ']E4' })).toMatchObject({ symbology: 'ean-8', aimId: ']E4' });
  });
});
