import { describe, expect, it } from 'vitest';
import { expandUpcE } from '../../../native/protocols/upc-e';

describe('UPC-E zero suppression (GS1 General Specifications §5.2.2.4.2)', () => {
  it.each([
    // last data digit 0-2: manufacturer d1 d2 d6 00, item 00 d3 d4 d5
    ['04252614', '042100005264'],
    // 3: manufacturer d1 d2 d3 00, item 000 d4 d5
    ['01234531', '012300000451'],
    // 4: manufacturer d1..d4 0, item 0000 d5
    ['01234543', '012340000053'],
    // 5-9: manufacturer d1..d5, item 0000 d6
    ['01234565', '012345000065'],
  ])('expands %s to the UPC-A %s', (upcE, upcA) => {
    expect(expandUpcE(upcE)).toEqual({ ok: true, upcA });
  });
  it('refuses a misread check digit with words a cashier can act on', () => {
    const r = expandUpcE('04252615');
    expect(r.ok).toBe(false);
    expect(r).toMatchObject({ reason: expect.stringMatching(/check digit.*scan it again/) as unknown });
  });
  it('refuses a number system other than 0 or 1, and anything but 8 digits', () => {
    expect(expandUpcE('24252614')).toMatchObject({ ok: false, reason: 'a UPC-E code starts with 0 or 1' });
    expect(expandUpcE('0425261')).toMatchObject({ ok: false });
    expect(expandUpcE('0425261x')).toMatchObject({ ok: false });
  });
});
