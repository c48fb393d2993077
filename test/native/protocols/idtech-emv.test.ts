import { describe, expect, it } from 'vitest';
import { encodeTlv } from '../../../native/protocols/ber-tlv';
import {
  EMV_RESULT,
  PROTOCOL2_STATUS,
  activateFailureResultCode,
  attributionInterface,
  buildActivateTransaction240,
  buildCancel,
  buildCancelReset,
  buildContactApplyHostResponse,
  buildContactAuthenticate,
  buildContactStart,
  emvResultText,
  encodeActivateFailureData,
  encodeActivateResponseData,
  encodeContactResponse,
  parseActivateResponse,
  parseActivateTransaction240Data,
  parseContactApplyHostResponseData,
  parseContactAuthenticateData,
  parseContactResponse,
  parseContactStartData,
  protocol2StatusText,
} from '../../../native/protocols/idtech-emv';
import { Vivo2Decoder, encodeVivo2Response, vivo2Crc } from '../../../native/protocols/vivotech2';

const spaced = (b: Uint8Array): string =>
  Buffer.from(b)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1 ');
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));
const HEADER = '56 69 56 4F 74 65 63 68 32 00';

const commandFrame = (frame: Uint8Array) => {
  const [f] = new Vivo2Decoder({ direction: 'command' }).feed(frame);
  if (!f) throw new Error('no frame decoded');
  return f;
};
const responseFrame = (frame: Uint8Array) => {
  const [f] = new Vivo2Decoder({ direction: 'response' }).feed(frame);
  if (!f) throw new Error('no frame decoded');
  return f;
};

// The worked frames of docs/idtech-emv.md, CRCs verified there ([calc]).
describe("ID TECH NGA Protocol 2 EMV commands: the notes' worked frames, byte for byte", () => {
  it('02-40 of the VP3350 manual p.13 (30 s, 9C 00, 1.00, all interfaces, fallback, 96 s; CRC 0xD118)', () => {
    const frame = buildActivateTransaction240({
      timeoutSeconds: 0x1e,
      transactionType: 0x00,
      amountCents: 100,
      otherAmountCents: 0,
      interfaces: { msr: true, contactless: true, contact: true },
      fallback: { allowed: true, nextCommandTimeoutSeconds: 0x60 },
    });
    expect(spaced(frame)).toBe(
      `${HEADER} 02 40 00 22 1E 9C 01 00 9F 02 06 00 00 00 00 01 00 ` +
        '9F 03 06 00 00 00 00 00 00 DF EF 37 01 07 DF EF 3C 03 01 00 60 18 D1',
    );
    expect(vivo2Crc(frame, 0, frame.length - 2)).toBe(0xd118);
  });

  it('the reader reads that 02-40 back: amounts, all three interfaces, fallback on, 96 s', () => {
    const f = commandFrame(
      bytes(
        `${HEADER} 02 40 00 22 1E 9C 01 00 9F 02 06 00 00 00 00 01 00 9F 03 06 00 00 00 00 00 00 DF EF 37 01 07 DF EF 3C 03 01 00 60 18 D1`,
      ),
    );
    expect(f.crcOk).toBe(true);
    expect(parseActivateTransaction240Data(f.data)).toEqual({
      amountCents: 100,
      otherAmountCents: 0,
      transactionType: 0,
      timeoutSeconds: 30,
      interfaces: { msr: true, contactless: true, contact: true },
      fallbackAllowed: true,
      nextCommandTimeoutSeconds: 96,
    });
  });

  it('02-40 with the contact interface only: DFEF37 = 04', () => {
    const frame = buildActivateTransaction240({
      timeoutSeconds: 30,
      amountCents: 1234,
      interfaces: { contact: true },
    });
    const parsed = parseActivateTransaction240Data(commandFrame(frame).data);
    expect(parsed?.interfaces).toEqual({ msr: false, contactless: false, contact: true });
    expect(spaced(frame)).toContain('DF EF 37 01 04');
  });

  it('05-01 cancel and reset (NEO2 p.242)', () => {
    expect(spaced(buildCancel())).toBe(`${HEADER} 05 01 00 00 92 EF`);
    expect(spaced(buildCancelReset(0x01))).toBe(`${HEADER} 05 01 00 01 01 D1 BD`);
  });

  it('60-11 with no data objects (§8.2)', () => {
    expect(spaced(buildContactAuthenticate())).toBe(`${HEADER} 60 11 00 00 66 49`);
    expect(parseContactAuthenticateData(new Uint8Array(0))).toEqual([]);
  });

  it('60-12 online, 8A 3030, 91 of ARPC 0102…08 + 3030 (§3 inferred frame, CRC 0xA4CE)', () => {
    const frame = buildContactApplyHostResponse({
      kind: 'online',
      arc: bytes('3030'),
      issuerAuthData: bytes('01020304050607083030'),
    });
    expect(spaced(frame)).toBe(
      `${HEADER} 60 12 00 11 01 8A 02 30 30 91 0A 01 02 03 04 05 06 07 08 30 30 CE A4`,
    );
  });

  it('60-12 carries the ID TECH KB host reply (8A, 91, 71, 72) and reads it back, dummy scripts included', () => {
    const kb = '8A023030910A010203040506070830307103010203720401020304';
    const data = bytes(`01${kb}`);
    const parsed = parseContactApplyHostResponseData(data);
    expect(parsed?.kind).toBe('online');
    if (parsed?.kind !== 'online') throw new Error('not online');
    expect(spaced(parsed.arc)).toBe('30 30');
    expect(spaced(parsed.issuerAuthData ?? new Uint8Array(0))).toBe('01 02 03 04 05 06 07 08 30 30');
    expect(parsed.scripts?.map((s) => `${s.tag}:${spaced(s.value)}`)).toEqual([
      '71:01 02 03',
      '72:01 02 03 04',
    ]);
    const rebuilt = buildContactApplyHostResponse(parsed);
    expect(spaced(commandFrame(rebuilt).data)).toBe(spaced(data));
  });

  it('60-12 unable to go online is ComFlag 00 with no 8A', () => {
    const frame = buildContactApplyHostResponse({ kind: 'unable-to-go-online' });
    expect(spaced(commandFrame(frame).data)).toBe('00');
    expect(parseContactApplyHostResponseData(bytes('00'))).toEqual({
      kind: 'unable-to-go-online',
      appData: [],
    });
    expect(parseContactApplyHostResponseData(bytes('02'))).toBeUndefined();
    expect(parseContactApplyHostResponseData(bytes('01910A0102030405060708303030'))).toBeUndefined();
  });
});

describe('60-10 Contact Start', () => {
  it('FallBack, TimeOut1, TimeOut2 (big-endian, CHOICE), then 9F02 9F03 9C [5F2A] [DFEE1A] DFEF1F', () => {
    const frame = buildContactStart({
      allowFallback: true,
      cardSeatedTimeoutSeconds: 30,
      authenticateTimeoutSeconds: 0x013c,
      amountCents: 2500,
      otherAmountCents: 500,
      transactionType: 0x09,
      currencyCode: 840,
      outputTags: ['57', '5A', '5F34', '8E'],
    });
    const f = commandFrame(frame);
    expect(spaced(f.data)).toBe(
      '01 00 1E 01 3C 9F 02 06 00 00 00 00 25 00 9F 03 06 00 00 00 00 05 00 9C 01 09 5F 2A 02 08 40 ' +
        'DF EE 1A 05 57 5A 5F 34 8E DF EF 1F 02 00 01',
    );
    const parsed = parseContactStartData(f.data);
    expect(parsed).toMatchObject({
      allowFallback: true,
      cardSeatedTimeoutSeconds: 30,
      authenticateTimeoutSeconds: 316,
      amountCents: 2500,
      otherAmountCents: 500,
      transactionType: 9,
      currencyCode: 840,
      outputTags: ['57', '5A', '5F34', '8E'],
      autoAuthenticate: false,
      forceOnline: true,
    });
  });
  it('refuses what a reader would answer 05 to: a fallback byte above 1, TLVs that do not parse, no amount', () => {
    expect(parseContactStartData(bytes('02001E001E9F0206000000000100'))).toBeUndefined();
    expect(parseContactStartData(bytes('01001E001E9F0206'))).toBeUndefined();
    expect(parseContactStartData(bytes('01001E001E9C0100'))).toBeUndefined();
    expect(() =>
      buildContactStart({
        allowFallback: false,
        cardSeatedTimeoutSeconds: 70_000,
        authenticateTimeoutSeconds: 1,
        amountCents: 1,
      }),
    ).toThrow(/TimeOut1/);
  });
});

describe('responses', () => {
  it('60-1x: RC (big-endian) | Attribution | TLVs', () => {
    const tlvs = [{ tag: '9F27', value: bytes('80') }];
    const frame = encodeContactResponse(EMV_RESULT.goOnline, tlvs);
    expect(spaced(frame).slice(30, 56)).toBe('60 00 00 07 00 04 00 9F 27');
    const r = parseContactResponse(responseFrame(frame));
    expect(r).toMatchObject({ ok: true, status: 0, resultCode: 0x0004, attribution: 0 });
    expect(r.ok && spaced(r.tlvBytes)).toBe(spaced(encodeTlv(tlvs)));
  });
  it('status 23 "request online authorization" reads as go online whatever the RC', () => {
    const frame = encodeContactResponse(EMV_RESULT.startOk, [], PROTOCOL2_STATUS.requestOnlineAuthorization);
    expect(parseContactResponse(responseFrame(frame))).toMatchObject({
      ok: true,
      resultCode: EMV_RESULT.goOnline,
    });
  });
  it('a failure status, a short or unparseable body, a bad CRC', () => {
    expect(parseContactResponse(responseFrame(encodeVivo2Response(0x60, 0x0b)))).toEqual({
      ok: false,
      status: 0x0b,
      reason: 'command not allowed',
    });
    expect(parseContactResponse(responseFrame(encodeVivo2Response(0x60, 0, bytes('0004'))))).toMatchObject({
      ok: false,
      status: 0x07,
    });
    expect(
      parseContactResponse(responseFrame(encodeVivo2Response(0x60, 0, bytes('0004009F27')))),
    ).toMatchObject({ ok: false, status: 0x07 });
    const broken = encodeVivo2Response(0x60, 0, bytes('000400'));
    broken[broken.length - 1] = (broken[broken.length - 1] ?? 0) ^ 0xff;
    expect(parseContactResponse(responseFrame(broken))).toMatchObject({ ok: false, status: 0x04 });
  });
  it('02-40: Attribution | TLVs, with the interface read from the Attribution bits (NEO2 p.232)', () => {
    const data = encodeActivateResponseData(0x00, [{ tag: '9F39', value: bytes('05') }]);
    const r = parseActivateResponse(responseFrame(encodeVivo2Response(0x02, 0x00, data)));
    expect(r).toMatchObject({ ok: true, attribution: 0, cardInterface: 'contact' });
    expect(attributionInterface(0x01)).toBe('contactless');
    expect(attributionInterface(0x11)).toBe('contactless');
    expect(attributionInterface(0x08)).toBe('msr');
    expect(parseActivateResponse(responseFrame(encodeVivo2Response(0x02, 0x23, bytes('01'))))).toMatchObject({
      ok: true,
      status: 0x23,
      cardInterface: 'contactless',
    });
  });
  it('02-40 contact start that ends early: status 0A with its 2-byte result code (CHOICE)', () => {
    const frame = responseFrame(
      encodeVivo2Response(0x02, 0x0a, encodeActivateFailureData(EMV_RESULT.fallbackToMsr)),
    );
    expect(activateFailureResultCode(frame)).toBe(0x0007);
    expect(activateFailureResultCode(responseFrame(encodeVivo2Response(0x02, 0x0a)))).toBeUndefined();
    expect(
      activateFailureResultCode(responseFrame(encodeVivo2Response(0x02, 0x08, bytes('0007')))),
    ).toBeUndefined();
  });
  it('status and result-code tables', () => {
    expect(protocol2StatusText(0x23)).toBe('request online authorization');
    expect(protocol2StatusText(0x0e)).toBe('user interface event');
    expect(protocol2StatusText(0x15)).toMatch(/secure communication/);
    expect(protocol2StatusText(0xfe)).toMatch(/unknown status 0xfe/);
    expect(emvResultText(0x0007)).toBe('fallback to magstripe');
    expect(emvResultText(0x0010)).toBe('start OK, authenticate next');
    expect(emvResultText(0x3005)).toBe('card removed');
    expect(emvResultText(0x4242)).toBe('EMV result 0x4242');
  });
});
