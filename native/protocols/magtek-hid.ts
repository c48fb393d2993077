/**
 * MagTek USB HID swipe readers (MagTek manual 99875191; docs/devices.md §2): the swipe input report,
 * parsed by its length because models differ, and the 24-byte feature-report command protocol.
 * Pure: node-hid or a simulator moves the bytes.
 */

// §2.1 identification.
export const MAGTEK_VENDOR_ID = 0x0801;
export const MAGTEK_PRODUCT_ID_HID = 0x0002;
export const MAGTEK_PRODUCT_ID_KEYBOARD = 0x0001;

// §2.2: 7 header bytes then three fixed 110-byte track fields; the P-series appends a card status byte.
export const SURESWIPE_REPORT_LENGTH = 337;
export const P_SERIES_REPORT_LENGTH = 338;
const HEADER_LENGTH = 7;
const TRACK_FIELD_LENGTH = 110;

/** §2.2 "Card encode type" (7 = JIS Type 2 on newer firmware). */
export const MAGTEK_ENCODE_TYPES = [
  'ISO/ABA',
  'AAMVA',
  'CADL',
  'Blank',
  'Other',
  'Undetermined',
  'None',
  'JIS Type 2',
] as const;
export type MagtekEncodeTypeName = (typeof MAGTEK_ENCODE_TYPES)[number] | 'Unknown';

export type MagtekTrack = {
  /** Status bit 0: the reader could not decode this track. */
  decodeError: boolean;
  /** ASCII from start to end sentinel inclusive; empty when blank or in error. */
  data: string;
};

export type MagtekSwipe = {
  layout: 'sureswipe' | 'p-series';
  tracks: [MagtekTrack, MagtekTrack, MagtekTrack];
  encodeType: number;
  encodeTypeName: MagtekEncodeTypeName;
  /** P-series only: byte 337 "Card Status". */
  cardStatus?: number;
};

export type MagtekReportError =
  | 'unsupported-length' // not a report layout this parser knows (§2.2: parse by length)
  | 'bad-track-length' // a track length byte exceeds its 110-byte field
  | 'bad-feature-report' // feature report is not 24 bytes (or 25 with a leading report ID 0)
  | 'bad-data-length' // feature report data length exceeds its 22-byte field
  | 'unknown-command'; // command byte is not GET_PROPERTY, SET_PROPERTY or RESET_DEVICE

export type MagtekResult<T> = { ok: true; value: T } | { ok: false; error: MagtekReportError };

function ascii(bytes: Uint8Array): string {
  return String.fromCharCode(...bytes);
}

/** Parses a swipe input report; never throws. Lengths other than 337 and 338 are unsupported. */
export function parseMagtekSwipeReport(report: Uint8Array): MagtekResult<MagtekSwipe> {
  let layout: MagtekSwipe['layout'];
  if (report.length === SURESWIPE_REPORT_LENGTH) layout = 'sureswipe';
  else if (report.length === P_SERIES_REPORT_LENGTH) layout = 'p-series';
  else return { ok: false, error: 'unsupported-length' };
  const tracks: MagtekTrack[] = [];
  for (let t = 0; t < 3; t += 1) {
    const decodeError = ((report[t] ?? 0) & 0x01) !== 0;
    const length = report[3 + t] ?? 0;
    if (length > TRACK_FIELD_LENGTH) return { ok: false, error: 'bad-track-length' };
    const offset = HEADER_LENGTH + t * TRACK_FIELD_LENGTH;
    // §2.2 page 22: a track in error has length 0 and no data; do not trust bytes a firmware left there.
    // Slice by the length byte: open-source parsers that take a fixed 109 bytes are off by one.
    const data = decodeError ? '' : ascii(report.subarray(offset, offset + length));
    tracks.push({ decodeError, data });
  }
  const encodeType = report[6] ?? 0;
  const [t1, t2, t3] = tracks as [MagtekTrack, MagtekTrack, MagtekTrack];
  return {
    ok: true,
    value: {
      layout,
      tracks: [t1, t2, t3],
      encodeType,
      encodeTypeName: MAGTEK_ENCODE_TYPES[encodeType] ?? 'Unknown',
      ...(layout === 'p-series' ? { cardStatus: report[SURESWIPE_REPORT_LENGTH] ?? 0 } : {}),
    },
  };
}

/**
 * Tracks 1 and 2 as a keyboard-wedge reader would type them (§2.4: a track in error becomes its start
 * sentinel, `E`, end sentinel), so one track parser serves both reader modes. Track 3 is left out: its
 * ISO start sentinel is the same `;` as track 2's.
 */
export function magtekSwipeText(swipe: MagtekSwipe): string {
  const [t1, t2] = swipe.tracks;
  const text = (t: MagtekTrack, ss: string): string => (t.decodeError ? `${ss}E?` : t.data);
  return text(t1, '%') + text(t2, ';');
}

/** A track to put in a built report: its ASCII data (empty for blank), or a decode error. */
export type MagtekTrackInput = string | { decodeError: true };

export type MagtekSwipeReportOptions = {
  /** Defaults: 0 ISO/ABA when any track has data, 5 Undetermined for errors only, 3 Blank otherwise. */
  encodeType?: number;
  /** Given: build the 338-byte P-series report with this card status byte. */
  cardStatus?: number;
};

/** Thrown by the report builder (simulators and tests); never carries track data. */
export class MagtekBuildError extends RangeError {
  override readonly name = 'MagtekBuildError';
}

/** Builds a swipe input report byte for byte as §2.2 lays it out, zero-padded. */
export function buildMagtekSwipeReport(
  track1: MagtekTrackInput,
  track2: MagtekTrackInput,
  track3: MagtekTrackInput = '',
  options: MagtekSwipeReportOptions = {},
): Uint8Array {
  const inputs = [track1, track2, track3];
  const pSeries = options.cardStatus !== undefined;
  const report = new Uint8Array(pSeries ? P_SERIES_REPORT_LENGTH : SURESWIPE_REPORT_LENGTH);
  let anyData = false;
  let anyError = false;
  inputs.forEach((input, t) => {
    if (typeof input !== 'string') {
      report[t] = 0x01;
      anyError = true;
      return;
    }
    if (input.length > TRACK_FIELD_LENGTH) throw new MagtekBuildError(`track ${t + 1} exceeds 110 bytes`);
    if (!/^[\x20-\x7e]*$/.test(input)) throw new MagtekBuildError(`track ${t + 1} is not printable ASCII`);
    report[3 + t] = input.length;
    for (let i = 0; i < input.length; i += 1)
      report[HEADER_LENGTH + t * TRACK_FIELD_LENGTH + i] = input.charCodeAt(i);
    if (input.length > 0) anyData = true;
  });
  report[6] = options.encodeType ?? (anyData ? 0 : anyError ? 5 : 3);
  if (pSeries) report[SURESWIPE_REPORT_LENGTH] = options.cardStatus ?? 0;
  return report;
}

// §2.3 feature reports: [0] command or result, [1] data length, [2..23] data, zero-filled.
export const MAGTEK_FEATURE_REPORT_LENGTH = 24;
const FEATURE_DATA_MAX = MAGTEK_FEATURE_REPORT_LENGTH - 2;

export const MAGTEK_COMMAND = { getProperty: 0x00, setProperty: 0x01, resetDevice: 0x02 } as const;
export const MAGTEK_RESULT = { success: 0x00, failure: 0x01, badParameter: 0x02 } as const;
/** Property IDs whose numbering the SureSwipe HID manual gives (§2.3; other firmware numbers differ). */
export const MAGTEK_PROPERTY = { maxPacketSize: 0x03, trackIdEnable: 0x04 } as const;

export type MagtekFeatureReport = { code: number; data: Uint8Array };

/** A request (`code` = command) or a response (`code` = result code): the layout is the same. */
export function buildMagtekFeatureReport(code: number, data: ArrayLike<number> = []): Uint8Array {
  if (data.length > FEATURE_DATA_MAX) throw new MagtekBuildError('feature report data exceeds 22 bytes');
  const report = new Uint8Array(MAGTEK_FEATURE_REPORT_LENGTH);
  report[0] = code;
  report[1] = data.length;
  report.set(Array.from(data), 2);
  return report;
}

export function buildGetProperty(propertyId: number): Uint8Array {
  return buildMagtekFeatureReport(MAGTEK_COMMAND.getProperty, [propertyId]);
}

export function buildSetProperty(propertyId: number, value: ArrayLike<number>): Uint8Array {
  return buildMagtekFeatureReport(MAGTEK_COMMAND.setProperty, [propertyId, ...Array.from(value)]);
}

export function buildResetDevice(): Uint8Array {
  return buildMagtekFeatureReport(MAGTEK_COMMAND.resetDevice);
}

/**
 * Accepts 24 bytes, or 25 with a leading report ID 0: node-hid's getFeatureReport returns the ID byte,
 * and Windows' report-ID-0 quirks (libusb/hidapi#328) make both appear (§2.3).
 */
export function parseMagtekFeatureReport(report: Uint8Array): MagtekResult<MagtekFeatureReport> {
  let body: Uint8Array;
  if (report.length === MAGTEK_FEATURE_REPORT_LENGTH) body = report;
  else if (report.length === MAGTEK_FEATURE_REPORT_LENGTH + 1 && report[0] === 0) body = report.subarray(1);
  else return { ok: false, error: 'bad-feature-report' };
  const length = body[1] ?? 0;
  if (length > FEATURE_DATA_MAX) return { ok: false, error: 'bad-data-length' };
  return { ok: true, value: { code: body[0] ?? 0, data: body.slice(2, 2 + length) } };
}

export type MagtekCommand =
  | { command: 'get-property'; propertyId: number }
  | { command: 'set-property'; propertyId: number; value: Uint8Array }
  | { command: 'reset-device' };

/** A host's command as a device (or simulator) receives it. */
export function parseMagtekCommand(report: Uint8Array): MagtekResult<MagtekCommand> {
  const r = parseMagtekFeatureReport(report);
  if (!r.ok) return r;
  const { code, data } = r.value;
  if (code === MAGTEK_COMMAND.resetDevice) return { ok: true, value: { command: 'reset-device' } };
  if (code === MAGTEK_COMMAND.getProperty || code === MAGTEK_COMMAND.setProperty) {
    const propertyId = data[0];
    if (propertyId === undefined) return { ok: false, error: 'bad-data-length' };
    return code === MAGTEK_COMMAND.getProperty
      ? { ok: true, value: { command: 'get-property', propertyId } }
      : { ok: true, value: { command: 'set-property', propertyId, value: data.slice(1) } };
  }
  return { ok: false, error: 'unknown-command' };
}

export type MagtekResultName = 'success' | 'failure' | 'bad-parameter' | 'command-specific' | 'unknown';

/** §2.3 result codes; any code with the MSB set is command-specific. */
export function magtekResultName(code: number): MagtekResultName {
  if (code === MAGTEK_RESULT.success) return 'success';
  if (code === MAGTEK_RESULT.failure) return 'failure';
  if (code === MAGTEK_RESULT.badParameter) return 'bad-parameter';
  return (code & 0x80) !== 0 ? 'command-specific' : 'unknown';
}

export type MagtekResponse = { result: number; resultName: MagtekResultName; data: Uint8Array };

/** A device's response as the host reads it. */
export function parseMagtekResponse(report: Uint8Array): MagtekResult<MagtekResponse> {
  const r = parseMagtekFeatureReport(report);
  if (!r.ok) return r;
  return {
    ok: true,
    value: { result: r.value.code, resultName: magtekResultName(r.value.code), data: r.value.data },
  };
}

export type TrackEnable = 'disabled' | 'enabled' | 'required' | 'reserved';
export type TrackIdEnable = { decodeAllFormats: boolean; tracks: [TrackEnable, TrackEnable, TrackEnable] };

const TRACK_ENABLE: readonly TrackEnable[] = ['disabled', 'enabled', 'required', 'reserved'];

/** Property 0x04 TRACK ID ENABLE: bits `id 0 T3 T3 T2 T2 T1 T1`, default 0x95 (§2.3). */
export function decodeTrackIdEnable(value: number): TrackIdEnable {
  const track = (t: number): TrackEnable => TRACK_ENABLE[(value >> (2 * t)) & 0x03] ?? 'reserved';
  return { decodeAllFormats: (value & 0x80) !== 0, tracks: [track(0), track(1), track(2)] };
}

export function encodeTrackIdEnable(v: TrackIdEnable): number {
  const bits = v.tracks.reduce((acc, t, i) => acc | (TRACK_ENABLE.indexOf(t) << (2 * i)), 0);
  return (v.decodeAllFormats ? 0x80 : 0) | bits;
}
