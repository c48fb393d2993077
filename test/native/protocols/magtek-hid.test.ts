import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSwipe } from '../../../native/protocols/iso7813-track';
import {
  buildGetProperty,
  buildMagtekFeatureReport,
  buildMagtekSwipeReport,
  buildResetDevice,
  buildSetProperty,
  decodeTrackIdEnable,
  encodeTrackIdEnable,
  MAGTEK_COMMAND,
  MAGTEK_PROPERTY,
  MAGTEK_RESULT,
  MagtekBuildError,
  magtekResultName,
  magtekSwipeText,
  parseMagtekCommand,
  parseMagtekResponse,
  parseMagtekSwipeReport,
} from '../../../native/protocols/magtek-hid';

// docs/devices.md §1 example card, as the reader's HID report carries it (§2.2).
const T1 = '%B4111111111111111^DOE/JOHN^2812101000000000000000000?';
const T2 = ';4111111111111111=28121010000000000000?';
const ascii = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
const padded = (bytes: number[], length: number): number[] => [
  ...bytes,
  ...new Array<number>(length - bytes.length).fill(0),
];

describe('MagTek HID swipe report (§2.2)', () => {
  const report = buildMagtekSwipeReport(T1, T2);

  it('builds the 337-byte report byte for byte', () => {
    const expected = [
      ...[0x00, 0x00, 0x00, 0x36, 0x27, 0x00, 0x00], // §2.2 example header [calc]
      ...padded(ascii(T1), 110),
      ...padded(ascii(T2), 110),
      ...padded([], 110),
    ];
    expect(expected).toHaveLength(337);
    expect(Array.from(report)).toEqual(expected);
    expect(String.fromCharCode(...report.subarray(7, 7 + 0x36))).toBe(T1);
    expect(String.fromCharCode(...report.subarray(117, 117 + 0x27))).toBe(T2);
  });

  it('parses it back and feeds the track parser', () => {
    const r = parseMagtekSwipeReport(report);
    expect(r).toEqual({
      ok: true,
      value: {
        layout: 'sureswipe',
        tracks: [
          { decodeError: false, data: T1 },
          { decodeError: false, data: T2 },
          { decodeError: false, data: '' },
        ],
        encodeType: 0,
        encodeTypeName: 'ISO/ABA',
      },
    });
    if (!r.ok) return;
    expect(magtekSwipeText(r.value)).toBe(T1 + T2);
    expect(parseSwipe(magtekSwipeText(r.value))).toMatchObject({ ok: true, value: { name: 'DOE/JOHN' } });
  });

  it('marks a track in error with status bit 0 and length 0, and the wedge E form', () => {
    const bad = buildMagtekSwipeReport({ decodeError: true }, T2);
    expect(Array.from(bad.subarray(0, 7))).toEqual([0x01, 0x00, 0x00, 0x00, 0x27, 0x00, 0x00]);
    const r = parseMagtekSwipeReport(bad);
    expect(r.ok && r.value.tracks[0]).toEqual({ decodeError: true, data: '' });
    expect(r.ok && magtekSwipeText(r.value)).toBe(`%E?${T2}`);
    // A firmware that leaves bytes behind an error flag: the data is not trusted.
    const dirty = Uint8Array.from(bad);
    dirty[3] = 5;
    dirty.set(ascii('%B411'), 7);
    const d = parseMagtekSwipeReport(dirty);
    expect(d.ok && d.value.tracks[0]).toEqual({ decodeError: true, data: '' });
  });

  it('chooses the encode type for blank and unreadable swipes (§8)', () => {
    expect(buildMagtekSwipeReport('', '')[6]).toBe(3);
    expect(buildMagtekSwipeReport({ decodeError: true }, { decodeError: true })[6]).toBe(5);
    const r = parseMagtekSwipeReport(buildMagtekSwipeReport('', '', '', { encodeType: 7 }));
    expect(r.ok && r.value.encodeTypeName).toBe('JIS Type 2');
  });

  it('parses the 338-byte P-series report with its card status byte', () => {
    const p = buildMagtekSwipeReport(T1, T2, '', { cardStatus: 0x42 });
    expect(p).toHaveLength(338);
    expect(p[337]).toBe(0x42);
    const r = parseMagtekSwipeReport(p);
    expect(r.ok && r.value.layout).toBe('p-series');
    expect(r.ok && r.value.cardStatus).toBe(0x42);
  });

  it('refuses other lengths and impossible track lengths', () => {
    expect(parseMagtekSwipeReport(new Uint8Array(336))).toEqual({ ok: false, error: 'unsupported-length' });
    expect(parseMagtekSwipeReport(new Uint8Array(339))).toEqual({ ok: false, error: 'unsupported-length' });
    const r = Uint8Array.from(report);
    r[4] = 111;
    expect(parseMagtekSwipeReport(r)).toEqual({ ok: false, error: 'bad-track-length' });
  });

  it('refuses to build tracks that do not fit the field', () => {
    expect(() => buildMagtekSwipeReport('x'.repeat(111), '')).toThrow(MagtekBuildError);
    expect(() => buildMagtekSwipeReport('\u00e9', '')).toThrow(MagtekBuildError);
  });

  it('fuzz: random reports parse or return an error, never throw', () => {
    const sized = fc.oneof(
      fc.uint8Array({ minLength: 337, maxLength: 338 }),
      fc.uint8Array({ maxLength: 400 }),
    );
    fc.assert(
      fc.property(sized, (bytes) => {
        const r = parseMagtekSwipeReport(bytes);
        expect((r.ok ? r.value.tracks : []).filter((t) => t.data.length > 110)).toEqual([]);
        expect(typeof parseMagtekCommand(bytes).ok).toBe('boolean');
        expect(typeof parseMagtekResponse(bytes).ok).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });
});

describe('MagTek feature-report commands (§2.3)', () => {
  it("builds the manual's SET MAX PACKET SIZE = 8 example byte for byte", () => {
    const req = buildSetProperty(MAGTEK_PROPERTY.maxPacketSize, [8]);
    expect(Array.from(req)).toEqual(padded([0x01, 0x02, 0x03, 0x08], 24));
    expect(parseMagtekCommand(req)).toEqual({
      ok: true,
      value: { command: 'set-property', propertyId: 0x03, value: Uint8Array.of(8) },
    });
    const resp = buildMagtekFeatureReport(MAGTEK_RESULT.success);
    expect(Array.from(resp)).toEqual(padded([0x00, 0x00], 24));
    expect(parseMagtekResponse(resp)).toEqual({
      ok: true,
      value: { result: 0, resultName: 'success', data: new Uint8Array() },
    });
  });

  it("builds the manual's GET MAX PACKET SIZE example and reads the answer 8", () => {
    const req = buildGetProperty(MAGTEK_PROPERTY.maxPacketSize);
    expect(Array.from(req)).toEqual(padded([0x00, 0x01, 0x03], 24));
    expect(parseMagtekCommand(req)).toEqual({ ok: true, value: { command: 'get-property', propertyId: 3 } });
    const resp = Uint8Array.from(padded([0x00, 0x01, 0x08], 24));
    expect(parseMagtekResponse(resp)).toEqual({
      ok: true,
      value: { result: 0, resultName: 'success', data: Uint8Array.of(8) },
    });
  });

  it('accepts a leading report ID 0 (25 bytes) as node-hid returns it', () => {
    const withId = Uint8Array.from([0x00, ...padded([0x00, 0x01, 0x08], 24)]);
    expect(parseMagtekResponse(withId)).toMatchObject({ ok: true, value: { data: Uint8Array.of(8) } });
    const wrongId = Uint8Array.from([0x01, ...padded([0x00, 0x01, 0x08], 24)]);
    expect(parseMagtekResponse(wrongId)).toEqual({ ok: false, error: 'bad-feature-report' });
  });

  it('builds RESET_DEVICE and names result codes', () => {
    expect(Array.from(buildResetDevice())).toEqual(padded([MAGTEK_COMMAND.resetDevice, 0x00], 24));
    expect(parseMagtekCommand(buildResetDevice())).toEqual({ ok: true, value: { command: 'reset-device' } });
    expect(magtekResultName(0x01)).toBe('failure');
    expect(magtekResultName(0x02)).toBe('bad-parameter');
    expect(magtekResultName(0x81)).toBe('command-specific');
    expect(magtekResultName(0x03)).toBe('unknown');
  });

  it('refuses malformed commands', () => {
    expect(parseMagtekCommand(new Uint8Array(23))).toEqual({ ok: false, error: 'bad-feature-report' });
    expect(parseMagtekCommand(Uint8Array.from(padded([0x05, 0x00], 24)))).toEqual({
      ok: false,
      error: 'unknown-command',
    });
    expect(parseMagtekCommand(Uint8Array.from(padded([0x00, 0x00], 24)))).toEqual({
      ok: false,
      error: 'bad-data-length',
    });
    expect(parseMagtekCommand(Uint8Array.from(padded([0x01, 23], 24)))).toEqual({
      ok: false,
      error: 'bad-data-length',
    });
    expect(() => buildMagtekFeatureReport(0, new Array<number>(23).fill(0))).toThrow(MagtekBuildError);
  });

  it('decodes TRACK ID ENABLE, default 0x95', () => {
    const v = decodeTrackIdEnable(0x95);
    expect(v).toEqual({ decodeAllFormats: true, tracks: ['enabled', 'enabled', 'enabled'] });
    expect(encodeTrackIdEnable(v)).toBe(0x95);
    expect(decodeTrackIdEnable(0x28)).toEqual({
      decodeAllFormats: false,
      tracks: ['disabled', 'required', 'required'],
    });
  });
});
