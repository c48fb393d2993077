/**
 * ISO/IEC 7813 financial magnetic-stripe tracks (docs/devices.md §1), as card readers hand them over:
 * with or without the start/end sentinels, with an optional LRC character after the end sentinel, and
 * MagTek's `E` in place of a track it could not read (§2.4). Never throws: bad input is a result.
 */

export type TrackErrorCode =
  | 'E' // the reader reported a read error for the track (MagTek sends 'E' for its data)
  | 'format' // not an ISO 7813 format-B track 1 / track 2
  | 'empty' // no track data at all
  | 'mismatch'; // track 1 and track 2 disagree on PAN or expiry

export type TrackResult<T> = { ok: true; value: T } | { ok: false; error: TrackErrorCode };

export type Track2Data = {
  pan: string;
  expiryYYMM: string;
  serviceCode: string;
  discretionary: string;
  /** The track between its sentinels (no LRC), as gateways take it in a Track2 field. */
  trackData: string;
};

export type Track1Data = Track2Data & {
  /** Cardholder name, usually `SURNAME/GIVEN`, with the field's space padding trimmed. */
  name: string;
};

export type SwipeData = {
  pan: string;
  expiryYYMM: string;
  serviceCode: string;
  name?: string;
  track1?: Track1Data;
  track2?: Track2Data;
};

// ISO/IEC 7811-2 capacities including SS, ES and LRC: 79 characters on track 1, 40 on track 2.
const TRACK1_MAX_BODY = 79 - 3;
const TRACK2_MAX_BODY = 40 - 3;

// Track 1 format B (ISO/IEC 7813 §6.3.1): FC 'B', PAN ≤ 19, '^', name 2-26, '^', YYMM, service code, rest.
// The name bound is relaxed to 0-26 because gift and private-label cards leave it blank.
const TRACK1_RE = /^B(\d{8,19})\^([^^]{0,26})\^(\d{4})(\d{3})(.*)$/s;
// Track 2 (ISO/IEC 7813 §6.3.2): PAN, '=', YYMM, service code, discretionary from the 0x30-0x3F set.
const TRACK2_RE = /^(\d{8,19})=(\d{4})(\d{3})([0-9:<=>]*)$/;
// Track 1's 6-bit alphabet is 0x20-0x5F; '%' and '?' are its sentinels and never data.
const TRACK1_CHARSET_RE = /^[\x20-\x24\x26-\x3E\x40-\x5F]*$/;

type Unwrapped = { ok: true; body: string } | { ok: false; error: TrackErrorCode };

/** Strips a trailing CR/LF, the start sentinel, and the end sentinel with its optional LRC character. */
function unwrap(raw: string, startSentinel: string): Unwrapped {
  let s = raw.replace(/[\r\n]+$/, '');
  if (s.startsWith(startSentinel)) s = s.slice(1);
  const end = s.indexOf('?');
  if (end >= 0) {
    if (s.length - end - 1 > 1) return { ok: false, error: 'format' };
    s = s.slice(0, end);
  }
  if (s === '') return { ok: false, error: 'empty' };
  if (s === 'E') return { ok: false, error: 'E' };
  return { ok: true, body: s };
}

// rule: track-format
export function parseTrack1(raw: string): TrackResult<Track1Data> {
  const u = unwrap(raw, '%');
  if (!u.ok) return u;
  // Track 1 has no lower case; a keyboard wedge under Caps Lock may invert it (MagTek forces upper, §2.4).
  const body = u.body.toUpperCase();
  if (body.length > TRACK1_MAX_BODY || !TRACK1_CHARSET_RE.test(body)) return { ok: false, error: 'format' };
  const m = TRACK1_RE.exec(body);
  if (!m) return { ok: false, error: 'format' };
  const [, pan = '', name = '', expiryYYMM = '', serviceCode = '', discretionary = ''] = m;
  return {
    ok: true,
    value: { pan, name: name.trim(), expiryYYMM, serviceCode, discretionary, trackData: body },
  };
}

export function parseTrack2(raw: string): TrackResult<Track2Data> {
  const u = unwrap(raw, ';');
  if (!u.ok) return u;
  if (u.body.length > TRACK2_MAX_BODY) return { ok: false, error: 'format' };
  const m = TRACK2_RE.exec(u.body);
  if (!m) return { ok: false, error: 'format' };
  const [, pan = '', expiryYYMM = '', serviceCode = '', discretionary = ''] = m;
  return { ok: true, value: { pan, expiryYYMM, serviceCode, discretionary, trackData: u.body } };
}

// Start sentinels a reader emits: '%' track 1, ';' track 2 (and ISO track 3), '+' MagTek's track 3 (§2.4).
const START_SENTINELS = new Set(['%', ';', '+']);
// Bounds the work on hostile input; a real swipe of three tracks is under 230 characters.
const MAX_SWIPE = 512;

type TrackSegments = { t1?: string; t2?: string };

/** Track 1 and track 2 segments of a reader's output, or undefined when it is not a track sequence. */
function splitTracks(s: string): TrackSegments | undefined {
  // One bare track: track 1 begins with its format code, track 2 with the PAN.
  if (!START_SENTINELS.has(s[0] ?? '')) return /^\d/.test(s) ? { t2: s } : { t1: s };
  const out: TrackSegments = {};
  let i = 0;
  while (i < s.length) {
    const ss = s[i] ?? '';
    if (!START_SENTINELS.has(ss)) return undefined;
    const end = s.indexOf('?', i + 1);
    if (end < 0) return undefined;
    let next = end + 1;
    if (next < s.length && !START_SENTINELS.has(s[next] ?? '')) next += 1;
    const segment = s.slice(i, next);
    if (ss === '%') {
      if (out.t1 !== undefined) return undefined;
      out.t1 = segment;
    } else if (ss === ';' && out.t2 === undefined) out.t2 = segment;
    i = next;
  }
  return out;
}

/**
 * Splits a reader's output into tracks (`[T1][T2][T3]CR`, §2.4) and parses tracks 1 and 2. A track the
 * reader marked `E` is skipped when the other one read well; any track that is present but malformed
 * fails the swipe, since a half-read stripe is not worth authorising on. Track 3 is ignored. An LRC
 * character that happens to equal a start sentinel is taken as the next track's start. A single track
 * without sentinels (how gateway clients send a `Track2` field) is accepted too.
 */
export function parseSwipe(raw: string): TrackResult<SwipeData> {
  const s = raw.replace(/[\r\n]+$/, '');
  if (s === '') return { ok: false, error: 'empty' };
  if (s.length > MAX_SWIPE) return { ok: false, error: 'format' };
  const segments = splitTracks(s);
  if (!segments) return { ok: false, error: 'format' };
  const { t1, t2 } = segments;
  const r1 = t1 === undefined ? undefined : parseTrack1(t1);
  const r2 = t2 === undefined ? undefined : parseTrack2(t2);
  if ((r1 && !r1.ok && r1.error !== 'E') || (r2 && !r2.ok && r2.error !== 'E')) {
    return { ok: false, error: 'format' };
  }
  const track1 = r1?.ok ? r1.value : undefined;
  const track2 = r2?.ok ? r2.value : undefined;
  if (track1 && track2) {
    if (track1.pan !== track2.pan || track1.expiryYYMM !== track2.expiryYYMM)
      return { ok: false, error: 'mismatch' };
  }
  // Track 2 is what an authorisation carries; track 1 adds the name.
  const primary = track2 ?? track1;
  if (!primary) return { ok: false, error: r1 || r2 ? 'E' : 'empty' };
  return {
    ok: true,
    value: {
      pan: primary.pan,
      expiryYYMM: primary.expiryYYMM,
      serviceCode: primary.serviceCode,
      ...(track1 ? { name: track1.name, track1 } : {}),
      ...(track2 ? { track2 } : {}),
    },
  };
}
