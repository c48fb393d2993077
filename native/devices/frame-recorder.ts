import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { decodeTlv, encodeTlv, type TlvNode } from '../protocols/ber-tlv';
import { NOT_LOGGABLE_EMV_TAGS } from '../protocols/emv-sanitize';
import { bytesToHex, hexToBytes } from '../protocols/hex';
import { maskCardData } from '../protocols/pan-mask';
import { ETX, lrc, SI, SO, STX } from '../protocols/verifone-packet';
import { VIVO2_HEADER, vivo2Crc } from '../protocols/vivotech2';
import type { ByteStream } from '../transports/byte-stream';
import type { HidDevicePort, RecordedHidDevice } from '../transports/hid-transport';
import { systemTimers, type Timers } from '../drivers/timers';

/**
 * Support recordings: every frame in and out of a device, as JSON lines (`{"t","dir","hex"}` after a
 * header line), with card data MASKED before anything touches the disk: PANs keep first six / last four
 * (PCI DSS 3.4); track names and discretionary data, the other EMV card-data tags, the cryptograms and
 * the card's cryptographic data (the sanitizer's NOT_LOGGABLE_EMV_TAGS) and PIN blocks are overwritten. Frames stay structurally valid (VeriFone LRC, ViVOtech2 CRC and
 * length recomputed; a bad check value stays bad) so a masked session still replays through a driver.
 */

export type FrameDirection = 'in' | 'out';

export type RecordedFrame = {
  /** Milliseconds since the recording started. */
  t: number;
  dir: FrameDirection;
  hex: string;
  /** HID only: an input report or a feature report. */
  ch?: 'report' | 'feature';
};

export type RecordingHeader = {
  kind: 'tillpoint-frames';
  version: 1;
  label: string;
  startedAt: string;
};

export type FrameSink = {
  writeLine(line: string): void;
  close(): Promise<void>;
};

/** Appends to a file readable by its owner only: even masked, a recording is support data. */
export function fileSink(path: string): FrameSink {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const out = createWriteStream(path, { flags: 'a', mode: 0o600 });
  return {
    writeLine: (line) => {
      out.write(`${line}\n`);
    },
    close: () => new Promise<void>((resolve) => out.end(resolve)),
  };
}

export function memorySink(): FrameSink & { readonly lines: string[] } {
  const lines: string[] = [];
  return { lines, writeLine: (l) => lines.push(l), close: () => Promise.resolve() };
}

// ---------------------------------------------------------------------------------------------------
// Masking

function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

function fromLatin1(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i += 1) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

const stars = (n: number): string => '*'.repeat(n);
const zeros = (n: number): string => '0'.repeat(n);
// ISO 7813 track 1 format B and track 2 (docs/devices.md §1), wherever they sit in a frame.
const TRACK1 = /B(\d{8,19})\^([^^?\r\n]{0,26})\^(\d{4})(\d{3})([^?\r\n]*)/;
const TRACK2 = /(\d{8,19})=(\d{4})(\d{3})([0-9:<>=]*)/;
const TRACKS = new RegExp(`${TRACK1.source}|${TRACK2.source}`, 'g');

/** Keeps the first six and last four digits; the rest become 0, so the field keeps its format. */
function maskDigits(digits: string): string {
  if (digits.length <= 10) return zeros(digits.length);
  return digits.slice(0, 6) + zeros(digits.length - 10) + digits.slice(-4);
}

function maskTrack(m: RegExpExecArray): string {
  const [, pan1, name, yymm1, svc1, disc1, pan2, yymm2, svc2, disc2] = m;
  if (pan1 !== undefined) {
    const d = (disc1 ?? '').replace(/[^ ]/g, '0');
    return `B${maskDigits(pan1)}^${stars((name ?? '').length)}^${yymm1 ?? ''}${svc1 ?? ''}${d}`;
  }
  return `${maskDigits(pan2 ?? '')}=${yymm2 ?? ''}${svc2 ?? ''}${zeros((disc2 ?? '').length)}`;
}

function maskFreeText(s: string): string {
  const masked = maskCardData(s);
  // maskCardData drops the spaces/dashes inside a grouped number; keep the length by over-masking digits.
  return masked.length === s.length ? masked : s.replace(/\d/g, '*');
}

/**
 * Masks card data in text without changing its length (a HID report's track fields are fixed-size).
 * Tracks are masked format-preserving, so a replayed swipe still parses into a (masked) card: PAN to first
 * six / last four with zeros between, discretionary data to zeros, the name to `*`. Any other long digit
 * run is masked as `maskCardData` does.
 */
export function maskText(text: string): string {
  let out = '';
  let last = 0;
  TRACKS.lastIndex = 0;
  for (let m = TRACKS.exec(text); m; m = TRACKS.exec(text)) {
    out += maskFreeText(text.slice(last, m.index)) + maskTrack(m);
    last = m.index + m[0].length;
  }
  return out + maskFreeText(text.slice(last));
}

function maskTextBytes(bytes: Uint8Array): Uint8Array {
  return fromLatin1(maskText(latin1(bytes)));
}

function maskTlvValue(tag: string, value: Uint8Array): Uint8Array {
  const hex = bytesToHex(value);
  switch (tag) {
    case '5A': {
      // cn: digits, then 'F' padding (EMV Book 3 Annex A).
      const m = /^(\d*)(F*)$/.exec(hex);
      return m ? hexToBytes(maskDigits(m[1] ?? '') + (m[2] ?? '')) : new Uint8Array(value.length);
    }
    case '57':
    case '9F6B': {
      // Track 2 equivalent: PAN 'D' YYMM SVC discretionary, 'F' pad.
      const m = /^(\d*)D(\d{0,7})(\d*)(F?)$/.exec(hex);
      if (!m) return new Uint8Array(value.length);
      return hexToBytes(
        `${maskDigits(m[1] ?? '')}D${m[2] ?? ''}${'0'.repeat((m[3] ?? '').length)}${m[4] ?? ''}`,
      );
    }
    case '56':
      return maskTextBytes(value);
    case '5F20':
    case '9F0B':
    case '9F1F':
      return fromLatin1(stars(value.length));
    default:
      // 99 (PIN data), 9F20 (track 2 discretionary), 5F24 (expiry), the cryptograms and the rest of the
      // cryptographic tags (9F26, 9F10, 9F4B, 91…): overwritten.
      return new Uint8Array(value.length);
  }
}

function maskTlvNodes(nodes: readonly TlvNode[]): TlvNode[] {
  return nodes.map((n) => {
    if (n.children) {
      const children = maskTlvNodes(n.children);
      return { tag: n.tag, value: encodeTlv(children), children };
    }
    return NOT_LOGGABLE_EMV_TAGS.has(n.tag) ? { tag: n.tag, value: maskTlvValue(n.tag, n.value) } : n;
  });
}

function startsWithAt(bytes: Uint8Array, at: number, prefix: Readonly<Uint8Array>): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

/**
 * Where the TLVs start in a frame's data. Contact EMV frames (idtech-emv.ts) put fixed fields first: a
 * 60-1x response `RC(2) | Attribution(1)`, a 60-10 command `FallBack | TimeOut1 | TimeOut2`, a 60-12
 * command `ComFlag`; a 02-40 answer starts with its Attribution byte. Without the direction (a damaged
 * CRC) every layout of the command is tried.
 */
function tlvOffsets(cmd: number, sub: number, direction: 'command' | 'response' | undefined): number[] {
  if (cmd === 0x60) {
    if (direction === 'response') return [3];
    const byCommand = sub === 0x10 ? 5 : sub === 0x12 ? 1 : 0;
    return direction === 'command' ? [byCommand] : [3, byCommand];
  }
  if (cmd === 0x02) return direction === 'command' ? [0] : [0, 1];
  return [0];
}

/** A complete ViVOtech2 frame at `start`, masked and re-framed; undefined when incomplete. */
function maskVivo2(bytes: Uint8Array, start: number): { frame: Uint8Array; end: number } | undefined {
  if (start + 14 > bytes.length) return undefined;
  const len = ((bytes[start + 12] ?? 0) << 8) | (bytes[start + 13] ?? 0);
  const end = start + 14 + len + 2;
  if (end > bytes.length) return undefined;
  const original = bytes.subarray(start, end);
  const data = original.subarray(14, 14 + len);
  const crc = vivo2Crc(original, 0, 14 + len);
  const a = original[14 + len] ?? 0;
  const b = original[15 + len] ?? 0;
  // Commands carry the CRC LSB first, responses MSB first (§3.3); a frame whose CRC matches neither was
  // recorded damaged and keeps its damaged CRC.
  const lsbFirst = ((b << 8) | a) === crc;
  const valid = lsbFirst || ((a << 8) | b) === crc;
  const direction = !valid ? undefined : lsbFirst ? 'command' : 'response';
  const cmd = original[10] ?? 0;
  let masked: Uint8Array | undefined;
  for (const offset of tlvOffsets(cmd, original[11] ?? 0, direction)) {
    if (offset > data.length) continue;
    try {
      const tlv = encodeTlv(maskTlvNodes(decodeTlv(data.subarray(offset))));
      masked = new Uint8Array(offset + tlv.length);
      masked.set(data.subarray(0, offset), 0);
      masked.set(tlv, offset);
      break;
    } catch {
      // try the next layout
    }
  }
  // Contact EMV data that is not TLV is binary (BCD PANs a text mask cannot see): record zeros instead.
  masked ??= cmd === 0x60 ? new Uint8Array(data.length) : maskTextBytes(data);
  const frame = new Uint8Array(14 + masked.length + 2);
  frame.set(original.subarray(0, 12), 0);
  frame[12] = masked.length >> 8;
  frame[13] = masked.length & 0xff;
  frame.set(masked, 14);
  const next = vivo2Crc(frame, 0, 14 + masked.length);
  const [c0, c1] = !valid ? [a, b] : lsbFirst ? [next & 0xff, next >> 8] : [next >> 8, next & 0xff];
  frame[14 + masked.length] = c0;
  frame[15 + masked.length] = c1;
  return { frame, end };
}

// 71/73 answers end with the encrypted PIN block (§4.3): it is dropped (zeroed), never recorded.
const PIN_BLOCK_ANSWER = /^(7[13]\.[0-9A-Fa-f]*?)([0-9A-Fa-f]{16})$/;

/** A VeriFone packet at `start` (STX/SI … ETX/SO LRC), masked with its LRC fixed; undefined when incomplete. */
function maskVerifone(bytes: Uint8Array, start: number): { frame: Uint8Array; end: number } | undefined {
  const terminator = bytes[start] === STX ? ETX : SO;
  let t = start + 1;
  while (t < bytes.length && bytes[t] !== terminator && bytes[t] !== STX && bytes[t] !== SI) t += 1;
  if (t >= bytes.length - 1 || bytes[t] !== terminator) return undefined;
  const body = latin1(bytes.subarray(start + 1, t));
  const pin = PIN_BLOCK_ANSWER.exec(body);
  const maskedBody = pin ? `${pin[1] ?? ''}${zeros(16)}` : maskText(body);
  const frame = new Uint8Array(maskedBody.length + 3);
  frame[0] = bytes[start] ?? STX;
  frame.set(fromLatin1(maskedBody), 1);
  frame[maskedBody.length + 1] = terminator;
  const recorded = bytes[t + 1] ?? 0;
  // Keep a bad LRC bad (a fault being investigated), a good one good.
  const delta = recorded ^ lrc(bytes, start + 1, t + 1);
  frame[maskedBody.length + 2] = lrc(frame, 1, maskedBody.length + 2) ^ delta;
  return { frame, end: t + 2 };
}

export type MaskMode =
  /** Recognise VeriFone and ViVOtech2 frames, mask text elsewhere. */
  | 'auto'
  /** Fixed-layout binary with text fields (MagTek HID reports): text masking only, length kept. */
  | 'text';

/** Masks card data in one recorded chunk; never throws, never returns the input array itself. */
export function maskFrameBytes(bytes: Uint8Array, mode: MaskMode = 'auto'): Uint8Array {
  if (mode === 'text') return maskTextBytes(bytes);
  const parts: Uint8Array[] = [];
  let i = 0;
  let plainStart = 0;
  const flushPlain = (to: number): void => {
    if (to > plainStart) parts.push(maskTextBytes(bytes.subarray(plainStart, to)));
  };
  while (i < bytes.length) {
    const b = bytes[i];
    const framed =
      b === VIVO2_HEADER[0] && startsWithAt(bytes, i, VIVO2_HEADER)
        ? maskVivo2(bytes, i)
        : b === STX || b === SI
          ? maskVerifone(bytes, i)
          : undefined;
    if (framed) {
      flushPlain(i);
      parts.push(framed.frame);
      i = framed.end;
      plainStart = i;
    } else i += 1;
  }
  flushPlain(bytes.length);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Recording

export type FrameRecorderOptions = {
  timers?: Timers;
  mode?: MaskMode;
};

/**
 * Received bytes are gathered until a unit is complete (a frame with its check byte, a line, a control
 * byte) and masked as a whole, never split by time: a PAN or a PIN block cut across two records would
 * be masked in neither. Only a runaway unit is cut, at this size, and the rest is written on close.
 */
const MAX_PENDING = 8192;

/** Bytes that complete a unit worth writing: end of a text line, a control byte, or a frame's check. */
function completeUpTo(pending: Uint8Array): number {
  let done = 0;
  let i = 0;
  while (i < pending.length) {
    const b = pending[i] ?? 0;
    if (
      b === VIVO2_HEADER[0] &&
      startsWithAt(pending, i, VIVO2_HEADER.subarray(0, Math.min(10, pending.length - i)))
    ) {
      if (i + 14 > pending.length) return done;
      const len = ((pending[i + 12] ?? 0) << 8) | (pending[i + 13] ?? 0);
      if (i + 16 + len > pending.length) return done;
      i += 16 + len;
      done = i;
      continue;
    }
    if (b === STX || b === SI) {
      const term = b === STX ? ETX : SO;
      let t = i + 1;
      while (t < pending.length && pending[t] !== term) t += 1;
      if (t + 1 >= pending.length) return done;
      i = t + 2;
      done = i;
      continue;
    }
    // Printable text may continue in the next read (a track, a PAN); anything else ends a unit.
    i += 1;
    if (b < 0x20 || b > 0x7e) done = i;
  }
  return done;
}

type Recorder = {
  record(dir: FrameDirection, bytes: Uint8Array, ch?: RecordedFrame['ch']): void;
  /** Received bytes that may belong to a frame not yet complete. */
  receive(bytes: Uint8Array): void;
  flush(): void;
};

function createRecorder(label: string, sink: FrameSink, options: FrameRecorderOptions): Recorder {
  const timers = options.timers ?? systemTimers;
  const mode = options.mode ?? 'auto';
  const started = timers.now();
  const header: RecordingHeader = {
    kind: 'tillpoint-frames',
    version: 1,
    label,
    startedAt: new Date(started).toISOString(),
  };
  sink.writeLine(JSON.stringify(header));
  let pending = new Uint8Array(0);
  let pendingAt = 0;

  const record = (
    dir: FrameDirection,
    bytes: Uint8Array,
    ch?: RecordedFrame['ch'],
    at = timers.now(),
  ): void => {
    if (bytes.length === 0) return;
    const frame: RecordedFrame = { t: at - started, dir, hex: bytesToHex(maskFrameBytes(bytes, mode)) };
    if (ch) frame.ch = ch;
    sink.writeLine(JSON.stringify(frame));
  };
  const flush = (): void => {
    record('in', pending, undefined, pendingAt);
    pending = new Uint8Array(0);
  };
  return {
    record,
    flush,
    receive(bytes) {
      if (pending.length === 0) pendingAt = timers.now();
      const joined = new Uint8Array(pending.length + bytes.length);
      joined.set(pending);
      joined.set(bytes, pending.length);
      const done = mode === 'text' ? joined.length : completeUpTo(joined);
      if (done > 0) record('in', joined.subarray(0, done), undefined, pendingAt);
      pending = joined.slice(done);
      if (done > 0) pendingAt = timers.now();
      if (pending.length > MAX_PENDING) flush();
    },
  };
}

/** Wraps a ByteStream so everything written and received is recorded (masked) to `sink`. */
export function recordStream(
  stream: ByteStream,
  sink: FrameSink,
  options: FrameRecorderOptions = {},
): ByteStream {
  const rec = createRecorder(stream.label, sink, options);
  stream.onData((chunk) => rec.receive(chunk));
  let closed = false;
  const end = (): void => {
    if (closed) return;
    closed = true;
    rec.flush();
    sink.close().catch(() => undefined);
  };
  stream.onClose(end);
  return {
    label: stream.label,
    get isOpen() {
      return stream.isOpen;
    },
    write(data) {
      rec.record('out', data);
      return stream.write(data);
    },
    onData: (listener) => stream.onData(listener),
    onClose: (listener) => stream.onClose(listener),
    async close() {
      await stream.close();
      end();
    },
  };
}

/** The HID counterpart: input reports and feature reports, text-masked in place (fixed layouts). */
export function recordHidPort(
  port: HidDevicePort,
  sink: FrameSink,
  options: FrameRecorderOptions = {},
): HidDevicePort {
  const rec = createRecorder(port.label, sink, { ...options, mode: 'text' });
  port.onReport((r) => rec.record('in', r, 'report'));
  port.onClose(() => {
    sink.close().catch(() => undefined);
  });
  return {
    label: port.label,
    info: port.info,
    get isOpen() {
      return port.isOpen;
    },
    onReport: (l) => port.onReport(l),
    onClose: (l) => port.onClose(l),
    async sendFeatureReport(reportId, data) {
      rec.record('out', data, 'feature');
      await port.sendFeatureReport(reportId, data);
    },
    async getFeatureReport(reportId, length) {
      const r = await port.getFeatureReport(reportId, length);
      rec.record('in', r, 'feature');
      return r;
    },
    async write(data) {
      rec.record('out', data, 'report');
      await port.write(data);
    },
    close: () => port.close(),
  };
}

// ---------------------------------------------------------------------------------------------------
// Replay

export type Recording = { header: RecordingHeader; frames: RecordedFrame[] };

function isFrame(v: unknown): v is RecordedFrame {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as Record<string, unknown>;
  return (
    typeof f.t === 'number' &&
    (f.dir === 'in' || f.dir === 'out') &&
    typeof f.hex === 'string' &&
    /^(?:[0-9A-Fa-f]{2})*$/.test(f.hex)
  );
}

/** Reads a JSON-lines recording; malformed lines are skipped (a recording cut off by a crash still loads). */
export function parseRecording(text: string): Recording {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  let header: RecordingHeader = { kind: 'tillpoint-frames', version: 1, label: 'unknown', startedAt: '' };
  const frames: RecordedFrame[] = [];
  for (const line of lines) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'tillpoint-frames') {
      header = v as RecordingHeader;
    } else if (isFrame(v)) frames.push(v);
  }
  return { header, frames };
}

export type ReplayReport = {
  /** Recorded inbound frames delivered to the driver. */
  delivered: number;
  /** Writes the driver made. */
  writes: number;
  /** Driver writes that differ from the recorded outbound frame at that point. */
  mismatches: number;
};

/**
 * A ByteStream that plays a recording's device side back to a driver. Inbound frames are delivered in
 * order; at each recorded outbound frame the replay waits for the driver to write, so a request/answer
 * protocol replays in step whatever the timing. `done` settles when the last frame has been delivered.
 */
export function createReplayStream(
  recording: Recording,
  options: { label?: string } = {},
): { stream: ByteStream; done: Promise<ReplayReport> } {
  const dataListeners = new Set<(chunk: Uint8Array) => void>();
  const closeListeners = new Set<(reason: Error | undefined) => void>();
  const frames = recording.frames.filter((f) => f.ch !== 'feature');
  const report: ReplayReport = { delivered: 0, writes: 0, mismatches: 0 };
  let index = 0;
  let open = true;
  let resolveDone: (r: ReplayReport) => void = () => undefined;
  const done = new Promise<ReplayReport>((resolve) => {
    resolveDone = resolve;
  });

  const pump = (): void => {
    while (open && index < frames.length) {
      const f = frames[index];
      if (!f || f.dir === 'out') return; // wait for the driver's write
      index += 1;
      const bytes = hexToBytes(f.hex);
      report.delivered += 1;
      for (const l of dataListeners) l(bytes);
    }
    if (index >= frames.length) resolveDone(report);
  };

  const stream: ByteStream = {
    label: options.label ?? `replay:${recording.header.label}`,
    get isOpen() {
      return open;
    },
    write(data) {
      if (!open) return Promise.reject(new Error('replay stream closed'));
      report.writes += 1;
      const expected = frames[index];
      if (expected?.dir === 'out') {
        if (expected.hex !== bytesToHex(maskFrameBytes(data))) report.mismatches += 1;
        index += 1;
      }
      setImmediate(pump);
      return Promise.resolve();
    },
    onData(listener) {
      dataListeners.add(listener);
      setImmediate(pump);
      return () => dataListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
    close() {
      if (open) {
        open = false;
        for (const l of closeListeners) l(undefined);
        resolveDone(report);
      }
      return Promise.resolve();
    },
  };
  return { stream, done };
}

/** Feeds a HID recording's input reports into the replay double of hid-transport. */
export function replayHidReports(recording: Recording, device: RecordedHidDevice): number {
  let n = 0;
  for (const f of recording.frames) {
    if (f.dir === 'in' && f.ch === 'report') {
      device.emitReport(hexToBytes(f.hex));
      n += 1;
    }
  }
  return n;
}
