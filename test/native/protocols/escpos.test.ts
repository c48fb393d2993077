import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { describe, expect, it } from 'vitest';
import {
  DRAWER_KICK,
  EscPosDecoder,
  type EscPosEvent,
  buildReceipt,
  drawerKick,
  encodeDleEotStatus,
  parseDleEotStatus,
  statusRequest,
} from '../../../native/protocols/escpos';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex').toUpperCase();

const lines = (events: EscPosEvent[]): string[] =>
  events.flatMap((e) => (e.type === 'line' ? [e.line.text.trimEnd()] : []));

describe('ESC/POS commands of docs/devices.md §6', () => {
  it('drawer kick is 1B 70 00 19 FA', () => {
    expect(hex(DRAWER_KICK)).toBe('1B700019FA');
    expect(hex(drawerKick())).toBe('1B700019FA');
    expect(hex(drawerKick(5, 100, 200))).toBe('1B70013264');
  });
  it('DLE EOT n is 10 04 n', () => {
    expect(hex(statusRequest(1))).toBe('100401');
    expect(hex(statusRequest(4))).toBe('100404');
  });
  it('idle printer status n=1 is 0x12 [calc]', () => {
    expect(encodeDleEotStatus(1)).toBe(0x12);
    expect(parseDleEotStatus(1, 0x12)).toEqual({
      n: 1,
      valid: true,
      drawerPin3High: false,
      offline: false,
      waitingForOnlineRecovery: false,
      feedButtonPressed: false,
    });
  });
  it('n=1 bit 2 drawer pin 3, bit 3 offline', () => {
    expect(parseDleEotStatus(1, 0x16).drawerPin3High).toBe(true);
    expect(parseDleEotStatus(1, 0x1a).offline).toBe(true);
  });
  it('n=2 bit 2 cover open, bit 3 FEED, bit 5 paper end stop, bit 6 error', () => {
    expect(parseDleEotStatus(2, 0x16)).toMatchObject({
      valid: true,
      coverOpen: true,
      stoppedAtPaperEnd: false,
    });
    expect(parseDleEotStatus(2, 0x1a).feedButtonFeeding).toBe(true);
    expect(parseDleEotStatus(2, 0x32).stoppedAtPaperEnd).toBe(true);
    expect(parseDleEotStatus(2, 0x52).error).toBe(true);
  });
  it('n=3 error causes and n=4 roll paper sensor', () => {
    expect(parseDleEotStatus(3, 0x1a)).toMatchObject({ autocutterError: true, mechanicalError: false });
    expect(parseDleEotStatus(4, 0x1e)).toMatchObject({ paperNearEnd: true, paperEnd: false });
    expect(parseDleEotStatus(4, 0x72)).toMatchObject({ paperNearEnd: false, paperEnd: true });
  });
  it('the fixed bits tell a status byte from noise', () => {
    expect(parseDleEotStatus(1, 0x00).valid).toBe(false);
    expect(parseDleEotStatus(1, 0x93).valid).toBe(false);
  });
  it('encodes the simulator conditions consistently with the parser', () => {
    const c = { coverOpen: true, paperEnd: true };
    expect(parseDleEotStatus(1, encodeDleEotStatus(1, c)).offline).toBe(true);
    expect(parseDleEotStatus(2, encodeDleEotStatus(2, c))).toMatchObject({
      coverOpen: true,
      stoppedAtPaperEnd: true,
    });
    expect(parseDleEotStatus(4, encodeDleEotStatus(4, c))).toMatchObject({
      paperNearEnd: true,
      paperEnd: true,
    });
  });
});

describe('buildReceipt through the encoder library, read back by EscPosDecoder', () => {
  it('init, text, bold, large, rule, drawer kick and cut', () => {
    const bytes = buildReceipt(
      [
        { text: 'TILLPOINT', align: 'center', bold: true },
        'Coffee                 3.50',
        '---',
        { text: 'TOTAL 3.50', large: true },
      ],
      { columns: 32, openDrawer: true, cut: 'partial' },
    );
    expect(hex(bytes.subarray(0, 2))).toBe('1B40');
    expect(hex(bytes)).toContain('1B700019FA');
    const events = new EscPosDecoder().feed(bytes);
    expect(events[0]).toEqual({ type: 'init' });
    expect(lines(events).slice(0, 4)).toEqual([
      '           TILLPOINT',
      'Coffee                 3.50',
      '─'.repeat(32),
      'TOTAL 3.50',
    ]);
    const printed = events.flatMap((e) => (e.type === 'line' ? [e.line] : []));
    expect(printed[0]?.bold).toBe(true);
    expect(printed[1]?.bold).toBe(false);
    expect(printed[3]?.large).toBe(true);
    expect(events.filter((e) => e.type === 'drawer')).toEqual([
      { type: 'drawer', pin: 2, onMs: 50, offMs: 500 },
    ]);
    expect(events.filter((e) => e.type === 'cut')).toEqual([{ type: 'cut', partial: true }]);
  });
  it('skips barcodes, QR codes and raster images by their declared lengths', () => {
    const bytes = new ReceiptPrinterEncoder({ language: 'esc-pos' })
      .initialize()
      .line('before')
      .barcode('123456789012', 'ean13', 60)
      .qrcode('https://example.test/r/1')
      .raw([0x1d, 0x76, 0x30, 0x00, 0x02, 0x00, 0x02, 0x00, 0x0a, 0x0a, 0x0a, 0x0a])
      .raw([0x1d, 0x56, 0x42, 0x03])
      .line('after')
      .cut('full')
      .encode();
    const events = new EscPosDecoder().feed(bytes);
    expect(lines(events).filter((l) => l !== '')).toEqual(['before', 'after']);
    expect(events.filter((e) => e.type === 'cut')).toEqual([
      { type: 'cut', partial: true },
      { type: 'cut', partial: false },
    ]);
  });
  it('prints a Code 128 (GS k 73) of the text given, which the decoder reads back as that text', () => {
    const bytes = buildReceipt(['before', { code128: 'T-mb1x2y3z-1a2b3c4d' }, 'after'], { cut: 'none' });
    // Code set B throughout, as Epson's GS k m=73 expects it: "{B" then the text (Epson TM-T88 manual).
    const data = [...Buffer.from('{BT-mb1x2y3z-1a2b3c4d', 'ascii')];
    expect(hex(bytes)).toContain(hex(Uint8Array.from([0x1d, 0x6b, 0x49, data.length, ...data])));
    // The text under the bars (HRI below: GS H 2).
    expect(hex(bytes)).toContain('1D4802');
    const events = new EscPosDecoder().feed(bytes);
    expect(events.filter((e) => e.type === 'barcode')).toEqual([
      { type: 'barcode', symbology: 'code128', data: 'T-mb1x2y3z-1a2b3c4d' },
    ]);
    expect(lines(events).filter((l) => l !== '')).toEqual(['before', 'after']);
  });
  it('reads Code 128 data in code set C (a byte per pair of digits), shifts and the escaped brace', () => {
    const events = new EscPosDecoder().feed(
      Uint8Array.of(0x1d, 0x6b, 0x49, 10, 0x7b, 0x43, 12, 34, 0x7b, 0x42, 0x58, 0x7b, 0x7b, 0x41),
    );
    expect(events).toEqual([{ type: 'barcode', symbology: 'code128', data: '1234X{A' }]);
    // Function A forms end at NUL: an EAN-13's digits.
    const ean = new EscPosDecoder().feed(Uint8Array.of(0x1d, 0x6b, 0x02, ...Buffer.from('400638133393'), 0));
    expect(ean).toEqual([{ type: 'barcode', symbology: 'ean13', data: '400638133393' }]);
  });
  it('recognises DLE EOT between commands, split across chunks', () => {
    const d = new EscPosDecoder();
    const events = [...d.feed(Uint8Array.of(0x41, 0x10)), ...d.feed(Uint8Array.of(0x04, 0x02, 0x42, 0x0a))];
    expect(events).toEqual([
      { type: 'status-request', n: 2 },
      { type: 'line', line: { text: 'AB', bold: false, large: false, underline: false, align: 'left' } },
    ]);
  });
  it('ESC a, ESC d, ESC ! and DLE DC4 pulse', () => {
    const events = new EscPosDecoder().feed(
      Uint8Array.from([
        0x1b, 0x61, 0x02, 0x1b, 0x21, 0x38, 0x58, 0x1b, 0x64, 0x03, 0x10, 0x14, 0x01, 0x00, 0x02,
      ]),
    );
    expect(events).toEqual([
      { type: 'line', line: { text: 'X', bold: true, large: true, underline: false, align: 'right' } },
      { type: 'feed', lines: 3 },
      { type: 'drawer', pin: 2, onMs: 200, offMs: 200 },
    ]);
  });
  it('decodes PC437 box characters', () => {
    const [e] = new EscPosDecoder().feed(Uint8Array.of(0xc4, 0xb3, 0x9c, 0x0a));
    expect(e?.type === 'line' && e.line.text).toBe('─│£');
  });
});
