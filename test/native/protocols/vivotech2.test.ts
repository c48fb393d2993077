import { describe, expect, it } from 'vitest';
import { PROTOCOL2_STATUS, protocol2StatusText } from '../../../native/protocols/idtech-emv';
import { decodeTlv, encodeTlv, findTlv } from '../../../native/protocols/ber-tlv';
import {
  Vivo2Decoder,
  buildActivateTransaction,
  fromBcd,
  parseActivateTransactionData,
  parseActivateTransactionResponse,
  toBcd,
  buildBuzzer,
  buildGetConfiguration,
  buildLed,
  buildPing,
  encodeVivo2Command,
  encodeVivo2Response,
  vivo2Crc,
  vivo2StatusText,
  VIVO2_STATUS,
} from '../../../native/protocols/vivotech2';

const hex = (b: Uint8Array): string =>
  Buffer.from(b)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1 ');
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

const PING = '56 69 56 4F 74 65 63 68 32 00 18 01 00 00 B3 CD';
const PING_OK = '56 69 56 4F 74 65 63 68 32 00 18 00 00 00 FA 83';

describe('ViVOtech2 Protocol 2 framing: worked examples of docs/devices.md §3.3', () => {
  it('ping command, CRC 0xCDB3 sent LSB first', () => {
    expect(hex(buildPing())).toBe(PING);
    expect(vivo2Crc(bytes(PING), 0, 14)).toBe(0xcdb3);
  });
  it('ping response, CRC 0xFA83 sent MSB first', () => {
    expect(hex(encodeVivo2Response(0x18, 0x00))).toBe(PING_OK);
  });
  it('get configuration ends 03 02 00 00 5B 91', () => {
    expect(hex(buildGetConfiguration())).toBe('56 69 56 4F 74 65 63 68 32 00 03 02 00 00 5B 91');
  });
  it('LED and buzzer carry their data', () => {
    expect(hex(buildLed(0xff, false, true)).slice(30, 50)).toBe('0A 03 00 03 FF 00 01');
    expect(hex(buildBuzzer(2)).slice(30, 41)).toBe('0B 02 00 00');
  });
  it('status text', () => {
    expect(vivo2StatusText(4)).toBe('CRC error in frame');
    expect(vivo2StatusText(0x99)).toMatch(/unknown/);
  });
  it('one status table for every Protocol 2 reader: the contactless reader reads the chip codes too', () => {
    // Before the fold this table lacked 0x0c, 0x0e, 0x23 and the grouped ranges the chip reader's had.
    expect(vivo2StatusText(0x23)).toBe('request online authorization');
    expect(vivo2StatusText(0x0c)).toBe('sub-command not allowed');
    expect(vivo2StatusText(0x42)).toBe('key manager error');
    expect(PROTOCOL2_STATUS).toBe(VIVO2_STATUS);
    expect(protocol2StatusText).toBe(vivo2StatusText);
  });
});

describe('Vivo2Decoder', () => {
  it('decodes commands split byte by byte after noise and a false header start', () => {
    const d = new Vivo2Decoder({ direction: 'command' });
    const input = Uint8Array.from([0x00, 0x56, 0x69, 0x56, 0x69, ...bytes(PING), 0x56]);
    const frames = [];
    for (const b of input) frames.push(...d.feed(Uint8Array.of(b)));
    expect(frames).toEqual([
      { cmd: 0x18, subOrStatus: 0x01, data: new Uint8Array(0), crc: 0xcdb3, crcOk: true },
    ]);
    expect(d.hasPartial).toBe(true);
    expect(d.droppedBytes).toBe(5);
  });
  it('decodes responses with MSB-first CRC and a payload', () => {
    const d = new Vivo2Decoder({ direction: 'response' });
    const data = Uint8Array.from({ length: 300 }, (_, i) => i & 0xff);
    const [f] = d.feed(encodeVivo2Response(0x02, 0x00, data));
    expect(f?.crcOk).toBe(true);
    expect(f?.data).toEqual(data);
  });
  it('flags a bad CRC, and a response read as a command fails its CRC', () => {
    const bad = bytes(PING);
    bad[15] = 0;
    expect(new Vivo2Decoder({ direction: 'command' }).feed(bad)[0]?.crcOk).toBe(false);
    expect(new Vivo2Decoder({ direction: 'command' }).feed(bytes(PING_OK))[0]?.crcOk).toBe(false);
  });
  it('drops a frame with an implausible length and finds the next', () => {
    const d = new Vivo2Decoder({ direction: 'command', maxDataLength: 16 });
    const huge = encodeVivo2Command(0x02, 0x01, new Uint8Array(17)).subarray(0, 14);
    const frames = d.feed(Uint8Array.from([...huge, ...bytes(PING)]));
    expect(frames).toHaveLength(1);
    expect(frames[0]?.cmd).toBe(0x18);
  });
  it('reset() drops a partial frame', () => {
    const d = new Vivo2Decoder({ direction: 'command' });
    d.feed(bytes(PING).subarray(0, 12));
    d.reset();
    expect(d.feed(bytes(PING).subarray(12))).toEqual([]);
    expect(d.feed(bytes(PING))).toHaveLength(1);
  });
});

describe('Activate Transaction (cmd 02 sub 01)', () => {
  it('carries the timeout byte then 9F02 (n12 BCD), 9C, 5F2A and 9A', () => {
    const frame = buildActivateTransaction({ amountCents: 1234, timeoutSeconds: 15, date: '260314' });
    const [f] = new Vivo2Decoder({ direction: 'command' }).feed(frame);
    expect(f?.cmd).toBe(0x02);
    expect(f?.subOrStatus).toBe(0x01);
    expect(f?.data[0]).toBe(15);
    const nodes = decodeTlv(f?.data.subarray(1) ?? new Uint8Array(0));
    expect(hex(findTlv(nodes, '9F02')?.value ?? new Uint8Array(0))).toBe('00 00 00 00 12 34');
    expect(hex(findTlv(nodes, '5F2A')?.value ?? new Uint8Array(0))).toBe('08 40');
    expect(hex(findTlv(nodes, '9C')?.value ?? new Uint8Array(0))).toBe('00');
    expect(hex(findTlv(nodes, '9A')?.value ?? new Uint8Array(0))).toBe('26 03 14');
    expect(parseActivateTransactionData(f?.data ?? new Uint8Array(0))).toEqual({
      amountCents: 1234,
      timeoutSeconds: 15,
      transactionType: 0,
      currencyCode: 840,
      date: '260314',
    });
  });
  it('refuses data without an amount', () => {
    expect(parseActivateTransactionData(Uint8Array.of(30))).toBeUndefined();
    expect(parseActivateTransactionData(Uint8Array.of(30, 0x9f))).toBeUndefined();
    expect(parseActivateTransactionData(new Uint8Array(0))).toBeUndefined();
  });
  it('reads EMV TLVs from an OK response and the status otherwise', () => {
    const tlv = encodeTlv([{ tag: '9F27', value: Uint8Array.of(0x80) }]);
    const [ok] = new Vivo2Decoder({ direction: 'response' }).feed(encodeVivo2Response(0x02, 0x00, tlv));
    const r = ok && parseActivateTransactionResponse(ok);
    expect(r?.ok && r.tlv[0]?.tag).toBe('9F27');
    const [timeout] = new Vivo2Decoder({ direction: 'response' }).feed(encodeVivo2Response(0x02, 0x08));
    expect(timeout && parseActivateTransactionResponse(timeout)).toEqual({
      ok: false,
      status: 8,
      reason: 'timeout',
    });
  });
  it('BCD helpers', () => {
    expect(hex(toBcd(840, 2))).toBe('08 40');
    expect(fromBcd(Uint8Array.of(0x12, 0x3f))).toBe('123f');
    expect(() => toBcd(123456, 2)).toThrow(RangeError);
  });
});
