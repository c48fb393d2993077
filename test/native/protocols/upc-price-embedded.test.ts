import { describe, expect, it } from 'vitest';
import { readPriceEmbeddedUpcA } from '../../../native/protocols/upc-price-embedded';

describe('price-embedded UPC-A (number system 2)', () => {
  it('reads item code and price, checking the price verifier digit (default layout 2 IIIII V PPPP C)', () => {
    // Item 12345 at 28.75: verifier 9 (the §7.9.2 worked example), GTIN check digit 2.
    expect(readPriceEmbeddedUpcA('212345928752')).toEqual({
      kind: 'price-embedded',
      itemCode: '12345',
      priceCents: 2875,
    });
  });
  it('refuses a label whose price does not match its verifier digit (a misread price)', () => {
    // Same label with the verifier digit misread as 8.
    expect(readPriceEmbeddedUpcA('212345828752')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/price check digit/) as unknown,
    });
  });
  it('reads the five-digit price layout (2 IIIII PPPPP C) when the store uses it', () => {
    expect(readPriceEmbeddedUpcA('204711004993', 'item5-price5')).toEqual({
      kind: 'price-embedded',
      itemCode: '04711',
      priceCents: 499,
    });
  });
  it('leaves other number systems alone', () => {
    expect(readPriceEmbeddedUpcA('036000241457')).toEqual({ kind: 'not-price-embedded' });
    expect(readPriceEmbeddedUpcA('21234592875')).toEqual({ kind: 'not-price-embedded' });
  });
});
