import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lastFour, maskCardData, maskPan } from '../../../native/protocols/pan-mask';

describe('PAN masking (PCI DSS 3.4: first six, last four)', () => {
  it('masks a PAN to first six and last four', () => {
    expect(maskPan('4111111111111111')).toBe('411111******1111');
    expect(maskPan('378282246310005')).toBe('378282*****0005');
    expect(maskPan('6205500000000000004')).toBe('620550*********0004');
    expect(maskPan('4111 1111 1111 1111')).toBe('411111******1111');
  });

  it('shows only the last four of PANs under 13 digits', () => {
    expect(maskPan('123456789012')).toBe('********9012');
    expect(maskPan('12345')).toBe('*2345');
    expect(maskPan('1234')).toBe('****');
  });

  it('gives the last four', () => {
    expect(lastFour('4111111111111111')).toBe('1111');
    expect(lastFour('4111-1111-1111-1234')).toBe('1234');
  });

  it('masks card numbers inside free text', () => {
    expect(maskCardData('card 4111111111111111 declined')).toBe('card 411111******1111 declined');
    expect(maskCardData('pan=4111-1111-1111-1111;')).toBe('pan=411111******1111;');
    expect(maskCardData('a 4111 1111 1111 1111 b 5555555555554444')).toBe(
      'a 411111******1111 b 555555******4444',
    );
    // The 20-digit track-2 remainder is masked too: runs longer than a PAN may hide one.
    expect(maskCardData(';4111111111111111=28121010000000000000?')).toBe(
      ';411111******1111=281210**********0000?',
    );
    expect(maskCardData('amount 1234.56, order 12345678901')).toBe('amount 1234.56, order 12345678901');
    expect(maskCardData('id 123456789012')).toBe('id ********9012');
  });

  it('leaves no run of 12+ digits in clear (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'0123456789 -ab'.split('')), maxLength: 200 }),
        (s) => {
          const out = maskCardData(s);
          expect(out).not.toMatch(/\d(?:[ -]?\d){11}/);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
