import { describe, expect, it } from 'vitest';
import {
  Vivo2Decoder,
  buildBuzzer,
  buildGetConfiguration,
  buildLed,
  buildPing,
  encodeVivo2Command,
  encodeVivo2Response,
  vivo2Crc,
  vivo2StatusText,
} from '../../../native/protocols/vivotech2';

const hex = (b: Uint8Array): string =>
  Buffer.from(b)
    .toString('hex')
    .toUpperCase()
    .replace(/(..)(?!$)/g, '$1 ');
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

const PING = '56 69 56 4F 74 65 63 68 32 00 18 01 00 00 B3 CD';
const PING_OK = '56 69 56 4F 74 65 63 68 32 00 18 00 00 00 FA 83';

describe('ViVOtech2 Protocol 2 framing: worked examples of devices-reference §3.3', () => {
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
