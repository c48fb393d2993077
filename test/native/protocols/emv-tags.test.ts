import { describe, expect, it } from 'vitest';
import { decodeTlvHex, flattenTlv } from '../../../native/protocols/ber-tlv';
import { EMV_TAGS, emvTagInfo } from '../../../native/protocols/emv-tags';
import { loadVector } from '../../support/vectors';

const v = loadVector<{ hex: string }>('emv/emv-tlv.json');

describe('EMV tag dictionary', () => {
  it.each(flattenTlv(decodeTlvHex(v.hex)).map((n) => n.tag))(
    'names tag %s of the published record',
    (tag) => {
      expect(emvTagInfo(tag)?.name).toBeTruthy();
    },
  );

  it('gives names and Book 3 formats', () => {
    expect(emvTagInfo('9f02')).toEqual({ name: 'Amount, Authorised (Numeric)', format: 'n' });
    expect(emvTagInfo('5A')?.format).toBe('cn');
    expect(emvTagInfo('57')?.format).toBe('b');
    expect(emvTagInfo('DF7F')).toBeUndefined();
  });

  it('keys every entry by upper-case hex', () => {
    for (const tag of Object.keys(EMV_TAGS)) expect(tag).toMatch(/^(?:[0-9A-F]{2}){1,3}$/);
  });
});
