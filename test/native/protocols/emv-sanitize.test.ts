import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeTlvHex, encodeTlvHex, flattenTlv } from '../../../native/protocols/ber-tlv';
import {
  CARD_DATA_TAGS,
  LOGGABLE_EMV_TAGS,
  NOT_LOGGABLE_EMV_TAGS,
  readEmvCardData,
  sanitizeEmvForLog,
  UNPARSEABLE_EMV_FOR_LOG,
} from '../../../native/protocols/emv-sanitize';
import { loadVector } from '../../support/vectors';

type EmvVector = {
  hex: string;
  tlvCount: number;
  expect: Record<string, string>;
  decoded: {
    pan: string;
    expiryYYMM: string;
    serviceCode: string;
    amountCents: number;
    currencyNumeric: string;
  };
  note: string;
};
const v = loadVector<EmvVector>('emv/emv-tlv.json');
const TEMPLATES = new Set(['70', '77']);
const tagsOf = (hex: string): string[] => flattenTlv(decodeTlvHex(hex)).map((n) => n.tag);
const tlv = (tag: string, valueHex: string): string =>
  `${tag}${(valueHex.length / 2).toString(16).toUpperCase().padStart(2, '0')}${valueHex}`;

describe('EMV card data for the gateway', () => {
  it('reads the published decoded block', () => {
    expect(readEmvCardData(v.hex)).toEqual({ ok: true, value: v.decoded });
  });

  it('falls back to 57 for the PAN and expiry and to 5F30 for the service code', () => {
    const t57 = v.expect['57'] ?? '';
    expect(readEmvCardData(tlv('57', t57))).toEqual({
      ok: true,
      value: { pan: v.decoded.pan, expiryYYMM: '2212', serviceCode: '201' },
    });
    expect(readEmvCardData(`${tlv('5A', `${v.decoded.pan}FF`)}${tlv('5F30', '0201')}`)).toEqual({
      ok: true,
      value: { pan: v.decoded.pan, serviceCode: '201' },
    });
    // Nested in a record template, as READ RECORD returns it.
    expect(readEmvCardData(tlv('70', tlv('57', t57)))).toMatchObject({
      ok: true,
      value: { pan: v.decoded.pan },
    });
  });

  it('reports what is wrong without throwing', () => {
    expect(readEmvCardData('5A08')).toEqual({ ok: false, error: 'tlv' });
    expect(readEmvCardData('nothex')).toEqual({ ok: false, error: 'tlv' });
    expect(readEmvCardData(tlv('9F02', '000000010000'))).toEqual({ ok: false, error: 'no-pan' });
    expect(readEmvCardData(`${tlv('5A', '4111111111111111')}${tlv('57', v.expect['57'] ?? '')}`)).toEqual({
      ok: false,
      error: 'pan-mismatch',
    });
    expect(readEmvCardData(tlv('5A', '47617390ABCD'))).toEqual({ ok: false, error: 'field' });
    expect(readEmvCardData(`${tlv('5A', v.decoded.pan)}${tlv('9F02', '0000000100AA')}`)).toEqual({
      ok: false,
      error: 'field',
    });
  });
});

describe('EMV data sanitised for logs', () => {
  it('covers every tag the vector says carries card data', () => {
    const named = v.note.match(/\b(?:[0-9A-F]{2}){1,2}\b/g) ?? [];
    expect(named.length).toBeGreaterThanOrEqual(9);
    for (const tag of named) expect(CARD_DATA_TAGS.has(tag)).toBe(true);
  });

  it('keeps only the loggable tags of the published record, byte for byte, and never its cryptogram', () => {
    const out = sanitizeEmvForLog(v.hex);
    const kept = tagsOf(out);
    const original = tagsOf(v.hex);
    expect(kept).toEqual(original.filter((t) => LOGGABLE_EMV_TAGS.has(t)));
    // What a support reader needs survives: the cryptogram's type, the terminal's checks, the amount.
    for (const tag of ['9F27', '95', '9B', '9F34', '9F36', '9F02', '5F2A', '9F1A', '82', '84'])
      expect(kept).toContain(tag);
    for (const tag of ['5A', '57', '5F20', '5F24', '9F1F', '9F26', '9F10', '5F34', '9F37'])
      expect(kept).not.toContain(tag);
    expect(out).not.toContain(v.decoded.pan);
    expect(out).not.toContain('221231');
    expect(out).not.toContain(v.expect['9F26'] ?? '9F26');
    expect(out).not.toContain(v.expect['9F10'] ?? '9F10');
    const kept9F27 = flattenTlv(decodeTlvHex(out)).find((n) => n.tag === '9F27');
    expect(kept9F27 && encodeTlvHex([kept9F27])).toBe('9F270180');
  });

  it('drops card data, cryptographic output and unknown tags at any depth and fixes the parents’ lengths', () => {
    const inner = `${tlv('57', v.expect['57'] ?? '')}${tlv('9F27', '80')}${tlv('5F20', '444F452F4A4F484E')}`;
    const crypto = `${tlv('9F26', 'D737017E33C78692')}${tlv('9F10', '06010A03A02000')}${tlv('9F4B', 'A1B2C3D4')}`;
    const hex = tlv(
      '77',
      `${tlv('70', inner)}${tlv('99', '1B9C1845EB993A7A')}${tlv('9F6B', '4111')}${crypto}${tlv('DF8129', 'AB')}`,
    );
    expect(sanitizeEmvForLog(hex)).toBe(tlv('77', tlv('70', tlv('9F27', '80'))));
  });

  it('lists nothing as both loggable and not', () => {
    for (const tag of NOT_LOGGABLE_EMV_TAGS) expect(LOGGABLE_EMV_TAGS.has(tag)).toBe(false);
    for (const tag of CARD_DATA_TAGS) expect(NOT_LOGGABLE_EMV_TAGS.has(tag)).toBe(true);
    for (const tag of ['9F26', '9F10', '9F4B', '91', '71', '72', '80'])
      expect(NOT_LOGGABLE_EMV_TAGS.has(tag)).toBe(true);
  });

  it('logs a marker, not the data, when the TLV does not parse', () => {
    expect(sanitizeEmvForLog(`5A08${v.decoded.pan.slice(0, 6)}`)).toBe(UNPARSEABLE_EMV_FOR_LOG);
    expect(sanitizeEmvForLog(';4111111111111111=2812')).toBe(UNPARSEABLE_EMV_FOR_LOG);
  });

  it('fuzz: never throws and never lets a card-data tag through', () => {
    const cardTag = fc.constantFrom(...CARD_DATA_TAGS);
    const anyTag = fc.constantFrom('9F27', '82', '95', '9F02', '5F2A', '9F10');
    const prim = fc
      .tuple(fc.oneof(cardTag, anyTag), fc.uint8Array({ maxLength: 20 }))
      .map(([t, b]) => tlv(t, Buffer.from(b).toString('hex').toUpperCase()));
    const record = fc.array(prim, { maxLength: 6 }).map((parts) => parts.join(''));
    const nested = record.map((r) => (r.length / 2 < 0x80 ? tlv('70', r) : r));
    fc.assert(
      fc.property(fc.oneof(record, nested, fc.string({ maxLength: 80 })), (hex) => {
        const out = sanitizeEmvForLog(hex);
        const kept = out === UNPARSEABLE_EMV_FOR_LOG ? [] : tagsOf(out);
        expect(kept.filter((tag) => !LOGGABLE_EMV_TAGS.has(tag) && !TEMPLATES.has(tag))).toEqual([]);
        expect(typeof readEmvCardData(hex).ok).toBe('boolean');
      }),
      { numRuns: 1500 },
    );
  });

  it('property: no value of a card-data or cryptographic tag appears anywhere in the sanitised form', () => {
    // Secret values are 4+ bytes, so a TLV header of the kept tags cannot spell one by itself; a kept
    // value that happens to contain a secret (fast-check likes all-zero arrays) is ruled out by `pre`.
    const secret = fc
      .tuple(fc.constantFrom(...NOT_LOGGABLE_EMV_TAGS), fc.uint8Array({ minLength: 4, maxLength: 24 }))
      .map(([tag, b]) => ({ tag, value: Buffer.from(b).toString('hex').toUpperCase(), secret: true }));
    const loggable = fc
      .tuple(fc.constantFrom(...LOGGABLE_EMV_TAGS), fc.uint8Array({ maxLength: 12 }))
      .map(([tag, b]) => ({ tag, value: Buffer.from(b).toString('hex').toUpperCase(), secret: false }));
    const element = fc.oneof(secret, loggable);
    fc.assert(
      fc.property(
        fc.array(element, { minLength: 1, maxLength: 10 }),
        fc.constantFrom('', '70', '77'),
        (elements, template) => {
          const wrap = (body: string): string =>
            template === '' || body.length / 2 >= 0x80 ? body : tlv(template, body);
          const hex = wrap(elements.map((e) => tlv(e.tag, e.value)).join(''));
          const secrets = elements.filter((e) => e.secret).map((e) => e.value);
          const loggableOnly = wrap(
            elements
              .filter((e) => !e.secret)
              .map((e) => tlv(e.tag, e.value))
              .join(''),
          );
          fc.pre(secrets.every((s) => !loggableOnly.includes(s)));
          const out = sanitizeEmvForLog(hex);
          for (const s of secrets) expect(out).not.toContain(s);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
