import { describe, expect, it } from 'vitest';
import {
  buildHidPosScanReports,
  HidPosScanAssembler,
  parseHidPosScanReport,
} from '../../../native/protocols/hid-pos-scanner';

const hex = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s.replace(/\s+/g, ''), 'hex'));

/**
 * Recorded reports, laid out byte by byte from the usage tables' Scanned Data Report (report ID 2, byte
 * count, AIM identifier, 56 data bytes, two vendor bytes, the Decode Data Continued bit).
 */
const upcA = hex(
  '02 0C 5D 45 30' + // ID, 12 data bytes, "]E0"
    '30 33 36 30 30 30 32 34 31 34 35 37' + // "036000241457"
    '00'.repeat(44) + // data field padding to 56
    '63 00' + // vendor code ID ('c' = UPC-A on Honeywell), spare
    '00', // last report
);
// Access-IS LSR118 manual's pattern: a 60-byte scan split 56 + 4, bit 0 of byte 63 set on the first.
const long = 'M1DOE/JOHN           EABCDEF LHRDUBEI 0123 052Y003D0023 14  ';
const first = hex(
  '02 38 5D 51 31' + Buffer.from(long.slice(0, 56), 'latin1').toString('hex') + '73 00' + '01',
);
const second = hex(
  '02 04 5D 51 31' + Buffer.from(long.slice(56), 'latin1').toString('hex') + '00'.repeat(52) + '73 00' + '00',
);

describe('HID POS scanned data report (usage page 0x8C)', () => {
  it('parses the identifier, the counted data bytes and the continued bit of a recorded report', () => {
    expect(upcA).toHaveLength(64);
    const p = parseHidPosScanReport(upcA);
    expect(p.ok).toBe(true);
    expect(p).toMatchObject({ value: { aimId: ']E0', continued: false } });
    expect(Buffer.from(p.ok ? p.value.data : []).toString('latin1')).toBe('036000241457');
  });
  it('accepts the 63-byte form a stack that drops the report ID gives', () => {
    expect(parseHidPosScanReport(upcA.subarray(1))).toMatchObject({ ok: true, value: { aimId: ']E0' } });
  });
  it('reads no identifier when the scanner sends zeros there', () => {
    const r = Uint8Array.from(upcA);
    r.fill(0, 2, 5);
    expect(parseHidPosScanReport(r)).toMatchObject({ ok: true, value: { aimId: undefined } });
  });
  it('refuses another report ID, a wrong length and a byte count over 56', () => {
    const other = Uint8Array.from(upcA);
    other[0] = 0x04;
    expect(parseHidPosScanReport(other)).toMatchObject({ ok: false });
    expect(parseHidPosScanReport(upcA.subarray(0, 40))).toMatchObject({ ok: false });
    const over = Uint8Array.from(upcA);
    over[1] = 57;
    expect(parseHidPosScanReport(over)).toMatchObject({ ok: false });
  });
  it('puts a continued scan back together (56 + 4 bytes)', () => {
    expect(long).toHaveLength(60);
    const a = new HidPosScanAssembler();
    expect(a.push(first)).toEqual({ kind: 'partial' });
    expect(a.pending).toBe(true);
    expect(a.push(second)).toEqual({ kind: 'scan', scan: { aimId: ']Q1', text: long } });
    expect(a.pending).toBe(false);
  });
  it('drops a half-assembled scan when a malformed report arrives, and reads the next one', () => {
    const a = new HidPosScanAssembler();
    a.push(first);
    expect(a.push(new Uint8Array(10))).toMatchObject({ kind: 'error' });
    expect(a.push(upcA)).toEqual({ kind: 'scan', scan: { aimId: ']E0', text: '036000241457' } });
  });
  it('builds the same bytes the recorded reports hold (the simulator side)', () => {
    const built = buildHidPosScanReports(long, ']Q1');
    expect(built).toHaveLength(2);
    // The vendor bytes are the scanner's own: compare everything else.
    for (const [b, r] of [
      [built[0], first],
      [built[1], second],
    ] as const) {
      expect(Buffer.from(b!.subarray(0, 61)).equals(Buffer.from(r.subarray(0, 61)))).toBe(true);
      expect(b![63]).toBe(r[63]);
    }
  });
});
