import { describe, expect, it } from 'vitest';
import {
  ACK,
  EOT,
  NAK,
  PacketDecoder,
  type PacketDecoderEvent,
  bodyText,
  compressKsn,
  encodeControl,
  encodeManagementPacket,
  encodeMessage,
  encodeTransactionPacket,
  expandKsn,
  isSevenBitClean,
  lrc,
  maskToSevenBit,
  messageBody,
  parseMessage,
} from '../../../native/protocols/verifone-packet';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();
const bytes = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

describe('VeriFone packet framing: worked frames of docs/devices.md §4.2/§4.3', () => {
  it('<STX>Z2THX<ETX> = 02 5A 32 54 48 58 03 2F', () => {
    expect(hex(encodeTransactionPacket('Z2THX'))).toBe('025A3254485803' + '2F');
    expect(hex(encodeMessage({ type: 'Z2', text: 'THX', clear: false }))).toBe('025A32544858032F');
  });
  it('<STX>72<ETX> = 02 37 32 03 06', () => {
    expect(hex(encodeMessage({ type: '72' }))).toBe('0237320306');
  });
  it('<SI>087<SO> = 0F 30 38 37 0E 31 (select master key 7, MX800 p.322)', () => {
    expect(hex(encodeManagementPacket('087'))).toBe('0F3038370E31');
    expect(hex(encodeMessage({ type: '08', keyIndex: 7 }))).toBe('0F3038370E31');
  });
  it('73 DUKPT response of the pydukpt vector has LRC 0x6E', () => {
    const frame = encodeMessage({ type: '73', ksn: 'FFFF9876543210E00001', pinBlock: '1B9C1845EB993A7A' });
    expect(bodyText(frame.subarray(1, -2))).toBe('73.000009876543210E000011B9C1845EB993A7A');
    expect(frame[frame.length - 1]).toBe(0x6e);
    expect(frame[0]).toBe(0x02);
    expect(frame[frame.length - 2]).toBe(0x03);
  });
  it('lrc() excludes STX and includes ETX', () => {
    const f = bytes('025A32544858032F');
    expect(lrc(f, 1, f.length - 1)).toBe(0x2f);
    expect(lrc(Uint8Array.of(0x37, 0x32, 0x03))).toBe(0x06);
  });
  it('refuses framing bytes in a body', () => {
    expect(() => encodeTransactionPacket('A\u0003B')).toThrow(RangeError);
    expect(() => encodeTransactionPacket('A\u0006')).toThrow(RangeError);
  });
  it('control bytes', () => {
    expect(hex(encodeControl('ACK'))).toBe('06');
    expect(hex(encodeControl('NAK'))).toBe('15');
    expect(hex(encodeControl('EOT'))).toBe('04');
  });
});

describe('7E1 support', () => {
  it('frames of 7-bit bodies are 7-bit clean, LRC included', () => {
    const frame = encodeMessage(
      { type: '73', ksn: 'FFFF9876543210E00001', pinBlock: '1B9C1845EB993A7A' },
      { sevenBit: true },
    );
    expect(isSevenBitClean(frame)).toBe(true);
  });
  it('refuses 8-bit bodies when sevenBit is set', () => {
    expect(() => encodeTransactionPacket(Uint8Array.of(0x5a, 0x32, 0xe9), { sevenBit: true })).toThrow(/7E1/);
    expect(isSevenBitClean(Uint8Array.of(0x80))).toBe(false);
  });
  it('masking recovers frames read as 8N1 from a 7E1 line', () => {
    // Even parity lands in bit 7 when an 8N1 port reads a 7E1 line.
    const withParity = encodeTransactionPacket('Z2THX').map((b) => {
      let ones = 0;
      for (let v = b; v; v >>= 1) ones += v & 1;
      return ones % 2 ? b | 0x80 : b;
    });
    expect(hex(maskToSevenBit(withParity))).toBe('025A32544858032F');
    const d = new PacketDecoder({ sevenBit: true });
    const [e] = d.feed(withParity);
    expect(e).toMatchObject({ type: 'packet', lrcOk: true });
  });
});

describe('PacketDecoder', () => {
  it('decodes a frame split into single bytes, amid noise and control bytes', () => {
    const d = new PacketDecoder();
    const stream = Uint8Array.from([
      0xff,
      0x41,
      ACK,
      ...encodeTransactionPacket('Z2THX'),
      0x00,
      NAK,
      ...encodeManagementPacket('087'),
      EOT,
    ]);
    const events: PacketDecoderEvent[] = [];
    for (const b of stream) events.push(...d.feed(Uint8Array.of(b)));
    expect(
      events.map((e) => (e.type === 'control' ? e.control : `${e.kind}:${bodyText(e.body)}:${e.lrcOk}`)),
    ).toEqual(['ACK', 'transaction:Z2THX:true', 'NAK', 'management:087:true', 'EOT']);
    expect(d.droppedBytes).toBe(3);
  });
  it('reports a bad LRC without throwing', () => {
    const f = encodeTransactionPacket('72');
    f[f.length - 1] = (f[f.length - 1] ?? 0) ^ 0x55;
    expect(new PacketDecoder().feed(f)).toEqual([
      { type: 'packet', kind: 'transaction', body: bytes('3732'), lrc: 0x06 ^ 0x55, lrcOk: false },
    ]);
  });
  it('restarts on a new STX inside a frame and drops oversized frames', () => {
    const d = new PacketDecoder({ maxBodyLength: 8 });
    const events = d.feed(
      Uint8Array.from([
        0x02,
        0x41,
        0x42,
        ...encodeTransactionPacket('72'),
        0x02,
        ...new Uint8Array(20).fill(0x41),
        0x03,
        0x00,
      ]),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'packet', lrcOk: true });
    expect(d.hasPartial).toBe(false);
  });
  it('reset() drops a partial frame', () => {
    const d = new PacketDecoder();
    d.feed(bytes('025A32'));
    expect(d.hasPartial).toBe(true);
    d.reset();
    expect(d.feed(bytes('5448 58 03 2F'))).toEqual([]);
  });
});

describe('PIN-entry messages (§4.3)', () => {
  it('73 parses the guide example and restores the leading Fs of the KSN', () => {
    expect(parseMessage('transaction', '73.0000001234567890123456789123456')).toEqual({
      type: '73',
      ksn: 'FFFFFFFFFF0123456789',
      pinBlock: '0123456789123456',
    });
    expect(parseMessage('transaction', '73.000009876543210E000011B9C1845EB993A7A')).toEqual({
      type: '73',
      ksn: 'FFFF9876543210E00001',
      pinBlock: '1B9C1845EB993A7A',
    });
  });
  it('KSN compression keeps at least 10 digits and round-trips', () => {
    expect(compressKsn('FFFF9876543210E00001')).toBe('9876543210E00001');
    expect(compressKsn('FFFFFFFFFFFF12345678')).toBe('FF12345678');
    expect(expandKsn('FF12345678')).toBe('FFFFFFFFFFFF12345678');
  });
  it('Z62 DUKPT variant (no session key) round-trips, Semnox layout without timeout', () => {
    const body = messageBody({
      type: 'Z62',
      account: '4012345678909',
      minPinLength: 4,
      maxPinLength: 12,
      allowNullPin: false,
      prompt1: 'ENTER PIN',
      prompt2: 'PRESS ENTER',
      processingPrompt: 'Processing...',
    });
    expect(body).toBe('Z62.4012345678909\u001c0412NENTER PIN\u001cPRESS ENTER\u001cProcessing...');
    expect(parseMessage('transaction', body)).toEqual({
      type: 'Z62',
      account: '4012345678909',
      minPinLength: 4,
      maxPinLength: 12,
      allowNullPin: false,
      prompt1: 'ENTER PIN',
      prompt2: 'PRESS ENTER',
      processingPrompt: 'Processing...',
    });
  });
  it('Z62 master/session variant carries a 16- or 32-hex session key and a timeout', () => {
    for (const key of ['0123456789ABCDEF', '0123456789ABCDEFFEDCBA9876543210']) {
      const msg = {
        type: 'Z62' as const,
        account: '4111111111111111',
        sessionKey: key,
        minPinLength: 4,
        maxPinLength: 6,
        allowNullPin: true,
        prompt1: 'PIN?',
        prompt2: '',
        processingPrompt: 'WAIT',
        timeout: '9',
      };
      expect(parseMessage('transaction', messageBody(msg))).toEqual(msg);
    }
  });
  it('70 with and without a session key', () => {
    const a = { type: '70' as const, account: '4111111111111111', amountCents: 1234 };
    expect(messageBody(a)).toBe('70.4111111111111111\u001c1234');
    expect(parseMessage('transaction', messageBody(a))).toEqual(a);
    const b = { ...a, sessionKey: '0123456789ABCDEF', amountCents: 99, timeout: '2' };
    expect(messageBody(b)).toBe('70.4111111111111111\u001c0123456789ABCDEF0099\u001c2');
    expect(parseMessage('transaction', messageBody(b))).toEqual(b);
  });
  it('71 response and errors', () => {
    const r = { type: '71' as const, pinLength: 4, format: '01', pinBlock: '1B9C1845EB993A7A' };
    expect(messageBody(r)).toBe('71.00401' + '1B9C1845EB993A7A');
    expect(parseMessage('transaction', messageBody(r))).toEqual(r);
    expect(parseMessage('transaction', '71A')).toEqual({
      type: '71-error',
      code: 'A',
      meaning: 'no DUKPT key loaded',
    });
    expect(parseMessage('transaction', '71F')).toMatchObject({ code: 'F' });
  });
  it('Z2 with a leading SUB clears the display', () => {
    expect(parseMessage('transaction', 'Z2\u001aHELLO')).toEqual({
      type: 'Z2',
      clear: true,
      text: 'HELLO',
    });
  });
  it('malformed bodies parse as unknown, never throw', () => {
    expect(parseMessage('transaction', 'Z62.12\u001c')).toMatchObject({ type: 'unknown' });
    expect(parseMessage('transaction', '73.00000XYZ')).toMatchObject({ type: 'unknown' });
    expect(parseMessage('management', '99')).toMatchObject({ type: 'unknown' });
  });
  it('builder errors never echo the account', () => {
    let message = '';
    try {
      messageBody({ type: '70', account: '4111111111111111X', amountCents: 1 });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/account/);
    expect(message).not.toMatch(/4111/);
  });
});
