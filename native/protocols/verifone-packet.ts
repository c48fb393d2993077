/**
 * VISA / VeriFone "packet" PIN-pad protocol (PINpad 1000/1000SE, the IPP of Omni/MX800, clones such as
 * the UIC PP791): framing, LRC, an incremental decoder, 7E1 helpers and the PIN-entry messages.
 * docs/devices.md §4.2 (framing) and §4.3 (messages). Pure: no I/O, no timers; the ACK/NAK link
 * layer lives in verifone-link.ts.
 *
 * Wire shapes:
 *   management packet   SI(0F) id data SO(0E) LRC
 *   transaction packet  STX(02) id data ETX(03) LRC
 *   LRC = XOR of every byte after SI/STX up to and including SO/ETX (PP791 p.26) -- unlike ID TECH,
 *   whose LRC includes STX (§3.1).
 */

export const STX = 0x02;
export const ETX = 0x03;
export const EOT = 0x04;
export const ACK = 0x06;
export const SO = 0x0e;
export const SI = 0x0f;
export const NAK = 0x15;
/** Clears the display when it leads Z2 text (§4.2). */
export const SUB = 0x1a;
/** Field separator inside messages (§4.2). */
export const FS = 0x1c;
/** ANSI-MAC separator (§4.2). */
export const US = 0x1f;

const FS_CHAR = String.fromCharCode(FS);
const SUB_CHAR = String.fromCharCode(SUB);

export type PacketKind = 'transaction' | 'management';
export type ControlByte = 'ACK' | 'NAK' | 'EOT';

/**
 * XOR of `data[start..end)`. Pass the bytes after SI/STX up to and including SO/ETX to get the packet
 * LRC of §4.2.
 */
export function lrc(data: Uint8Array, start = 0, end = data.length): number {
  let x = 0;
  for (let i = start; i < end; i += 1) x ^= data[i] ?? 0;
  return x;
}

// ---------------------------------------------------------------------------------------------------
// 7E1 (§4.2: "With 7E1 every byte (LRC included) must be < 0x80")

/** True when every byte fits in 7 data bits, as a 7E1/7O1 line requires. */
export function isSevenBitClean(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b >= 0x80) return false;
  return true;
}

/**
 * Strips bit 7 from every byte. Reading a 7E1 line with an 8N1 port leaves the parity bit in bit 7;
 * masking recovers the characters (the parity check itself is the UART's job).
 */
export function maskToSevenBit(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) out[i] = (bytes[i] ?? 0) & 0x7f;
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Encoding

export type EncodeOptions = {
  /** Refuse bytes >= 0x80 (7E1/7O1 lines, §4.2). The LRC of 7-bit bytes is itself 7-bit. */
  sevenBit?: boolean;
};

function toBytes(body: string | Uint8Array): Uint8Array {
  if (typeof body !== 'string') return body;
  const out = new Uint8Array(body.length);
  for (let i = 0; i < body.length; i += 1) {
    const c = body.charCodeAt(i);
    if (c > 0xff) throw new RangeError('VeriFone packet body must be single-byte characters');
    out[i] = c;
  }
  return out;
}

function encodePacket(
  start: number,
  end: number,
  body: string | Uint8Array,
  opts: EncodeOptions,
): Uint8Array {
  const bytes = toBytes(body);
  for (const b of bytes) {
    // A framing byte inside the body would end or restart the packet at the receiver.
    if (b === STX || b === ETX || b === SI || b === SO || b === EOT || b === ACK || b === NAK) {
      throw new RangeError(`VeriFone packet body contains framing byte 0x${b.toString(16).padStart(2, '0')}`);
    }
    if (opts.sevenBit === true && b >= 0x80) {
      throw new RangeError('VeriFone packet body has a byte >= 0x80, which a 7E1 line cannot carry');
    }
  }
  const out = new Uint8Array(bytes.length + 3);
  out[0] = start;
  out.set(bytes, 1);
  out[bytes.length + 1] = end;
  out[bytes.length + 2] = lrc(out, 1, bytes.length + 2);
  return out;
}

/** `STX body ETX LRC` (§4.2). `body` is the message id plus its data, e.g. `"Z2THX"`. */
export function encodeTransactionPacket(body: string | Uint8Array, opts: EncodeOptions = {}): Uint8Array {
  return encodePacket(STX, ETX, body, opts);
}

/** `SI body SO LRC` (§4.2), e.g. `"087"` to select master key 7. */
export function encodeManagementPacket(body: string | Uint8Array, opts: EncodeOptions = {}): Uint8Array {
  return encodePacket(SI, SO, body, opts);
}

/** The single control bytes of the link layer. */
export function encodeControl(control: ControlByte): Uint8Array {
  return Uint8Array.of(control === 'ACK' ? ACK : control === 'NAK' ? NAK : EOT);
}

// ---------------------------------------------------------------------------------------------------
// Decoding

export type DecodedPacket = {
  type: 'packet';
  kind: PacketKind;
  /** The bytes between SI/STX and SO/ETX (message id + data). */
  body: Uint8Array;
  /** The LRC byte as received. */
  lrc: number;
  lrcOk: boolean;
};
export type DecodedControl = { type: 'control'; control: ControlByte };
export type PacketDecoderEvent = DecodedPacket | DecodedControl;

export type PacketDecoderOptions = {
  /** Longest body kept before the decoder gives up on a frame and resynchronises. Default 1024. */
  maxBodyLength?: number;
  /** Mask incoming bytes to 7 bits (a 7E1 line read as 8N1). Default false. */
  sevenBit?: boolean;
};

// Decoder states (plain numbers: const enums do not survive isolated-module transpilers such as tsx).
const IDLE = 0;
const BODY = 1;
const LRC = 2;
type State = typeof IDLE | typeof BODY | typeof LRC;

/**
 * Incremental decoder: feed it chunks as they arrive (split anywhere); it yields packets with their
 * LRC verdict and the ACK/NAK/EOT control bytes. Bytes outside a frame are noise and are counted, not
 * thrown on. A new SI/STX inside a frame restarts the frame, since the sender has evidently given up
 * on the previous one; ACK/NAK/EOT inside a frame abort it and are reported (printable message data
 * never contains them).
 */
export class PacketDecoder {
  private readonly buf: Uint8Array;
  private readonly sevenBit: boolean;
  private state: State = IDLE;
  private kind: PacketKind = 'transaction';
  private len = 0;
  private xor = 0;
  /** Bytes dropped as noise or in abandoned frames since construction. */
  droppedBytes = 0;

  constructor(opts: PacketDecoderOptions = {}) {
    this.buf = new Uint8Array(opts.maxBodyLength ?? 1024);
    this.sevenBit = opts.sevenBit ?? false;
  }

  /** Feeds a chunk and calls `onEvent` for each complete packet or control byte, in order. */
  push(chunk: Uint8Array, onEvent: (event: PacketDecoderEvent) => void): void {
    for (let i = 0; i < chunk.length; i += 1) {
      let b = chunk[i] ?? 0;
      if (this.sevenBit) b &= 0x7f;
      switch (this.state) {
        case IDLE:
          if (b === STX || b === SI) this.start(b);
          else if (b === ACK || b === NAK || b === EOT) onEvent(controlEvent(b));
          else this.droppedBytes += 1;
          break;
        case BODY:
          if ((this.kind === 'transaction' && b === ETX) || (this.kind === 'management' && b === SO)) {
            this.xor ^= b;
            this.state = LRC;
          } else if (b === STX || b === SI) {
            this.droppedBytes += this.len + 1;
            this.start(b);
          } else if (b === ACK || b === NAK || b === EOT) {
            this.droppedBytes += this.len + 1;
            this.state = IDLE;
            onEvent(controlEvent(b));
          } else if (this.len >= this.buf.length) {
            this.droppedBytes += this.len + 2;
            this.state = IDLE;
          } else {
            this.buf[this.len] = b;
            this.len += 1;
            this.xor ^= b;
          }
          break;
        case LRC:
          this.state = IDLE;
          onEvent({
            type: 'packet',
            kind: this.kind,
            body: this.buf.slice(0, this.len),
            lrc: b,
            lrcOk: b === this.xor,
          });
          break;
      }
    }
  }

  /** Convenience over `push` that collects the events of one chunk. */
  feed(chunk: Uint8Array): PacketDecoderEvent[] {
    const events: PacketDecoderEvent[] = [];
    this.push(chunk, (e) => events.push(e));
    return events;
  }

  /** True while part of a frame is buffered. */
  get hasPartial(): boolean {
    return this.state !== IDLE;
  }

  /** Drops any partial frame (e.g. after an inter-character timeout). */
  reset(): void {
    if (this.state !== IDLE) this.droppedBytes += this.len + 1;
    this.state = IDLE;
    this.len = 0;
  }

  private start(b: number): void {
    this.state = BODY;
    this.kind = b === STX ? 'transaction' : 'management';
    this.len = 0;
    this.xor = 0;
  }
}

const CONTROL_EVENTS: Record<number, DecodedControl> = {
  [ACK]: { type: 'control', control: 'ACK' },
  [NAK]: { type: 'control', control: 'NAK' },
  [EOT]: { type: 'control', control: 'EOT' },
};

function controlEvent(b: number): DecodedControl {
  // Shared frozen objects: a NAK storm should not allocate per byte.
  return CONTROL_EVENTS[b] ?? { type: 'control', control: 'EOT' };
}

/** The packet body as text (the protocol's messages are ASCII). */
export function bodyText(body: Uint8Array): string {
  let s = '';
  for (const b of body) s += String.fromCharCode(b);
  return s;
}

// ---------------------------------------------------------------------------------------------------
// Messages (§4.3)

/**
 * Z62: PIN entry request (PP791 p.228 / p.249). `sessionKey` present = master/session variant (answered
 * by 71); absent = DUKPT variant (answered by 73).
 */
export type Z62Request = {
  type: 'Z62';
  account: string;
  sessionKey?: string;
  minPinLength: number;
  maxPinLength: number;
  /** 'Y' lets the cardholder press Enter with no digits. */
  allowNullPin: boolean;
  prompt1: string;
  prompt2: string;
  processingPrompt: string;
  /** Timeout field as sent (PP791: '1'..'9' x 30 s). Omitted by some hosts (Semnox). */
  timeout?: string;
};

/** 70: PIN entry with the amount shown on the pad (PP791 p.201). */
export type PinRequest70 = {
  type: '70';
  account: string;
  sessionKey?: string;
  /** Minor units, sent as 4..8 digits. */
  amountCents: number;
  timeout?: string;
};

/** 71: master/session response (PP791 p.204). */
export type MsPinResponse71 = {
  type: '71';
  pinLength: number;
  /** PIN block format, "01" = ISO 9564 format 0. */
  format: string;
  pinBlock: string;
};

/** 71 error (PP791 p.245). */
export type PinError71 = { type: '71-error'; code: string; meaning: string };

/** 73: DUKPT response (MX800 p.327). */
export type DukptPinResponse73 = {
  type: '73';
  /** Full 20-hex-digit KSN, leading F's restored. */
  ksn: string;
  pinBlock: string;
};

export type Cancel72 = { type: '72' };
export type DisplayZ2 = { type: 'Z2'; text: string; clear: boolean };
export type SelectMasterKey08 = { type: '08'; keyIndex: number };
export type UnknownMessage = { type: 'unknown'; id: string; body: string };

export type VerifoneMessage =
  | Z62Request
  | PinRequest70
  | MsPinResponse71
  | PinError71
  | DukptPinResponse73
  | Cancel72
  | DisplayZ2
  | SelectMasterKey08;

/** PP791 p.245 error codes of packet 71. */
export const PIN_ERROR_CODES: Readonly<Record<string, string>> = {
  '0': 'null account',
  '2': 'account shorter than 8 digits',
  '3': 'account longer than 19 digits',
  '4': 'account has a non-digit',
  '6': 'invalid timeout value',
  A: 'no DUKPT key loaded',
  F: 'DUKPT 1M-transaction limit reached',
};

const HEX16_OR_32 = /^(?:[0-9A-Fa-f]{16}|[0-9A-Fa-f]{32})$/;

function checkAccount(account: string): void {
  // Never echo the account in the message: it is a PAN.
  if (!/^\d{8,19}$/.test(account)) throw new RangeError('account must be 8 to 19 digits');
}

function checkSessionKey(key: string | undefined): void {
  if (key !== undefined && !HEX16_OR_32.test(key)) {
    throw new RangeError('session key must be 16 or 32 hex digits');
  }
}

function checkText(field: string, value: string): void {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) throw new RangeError(`${field} must be printable ASCII`);
  }
}

function twoDigits(n: number, field: string): string {
  if (!Number.isInteger(n) || n < 0 || n > 99) throw new RangeError(`${field} must be 0..99`);
  return String(n).padStart(2, '0');
}

/** Message body (id + data) of a message, ready for `encodeMessage` or the packet encoders. */
export function messageBody(msg: VerifoneMessage): string {
  switch (msg.type) {
    case 'Z62': {
      checkAccount(msg.account);
      checkSessionKey(msg.sessionKey);
      checkText('prompt1', msg.prompt1);
      checkText('prompt2', msg.prompt2);
      checkText('processingPrompt', msg.processingPrompt);
      const timeout = msg.timeout === undefined ? '' : FS_CHAR + msg.timeout;
      if (msg.timeout !== undefined) checkText('timeout', msg.timeout);
      return (
        `Z62.${msg.account}${FS_CHAR}${msg.sessionKey ?? ''}` +
        `${twoDigits(msg.minPinLength, 'minPinLength')}${twoDigits(msg.maxPinLength, 'maxPinLength')}` +
        `${msg.allowNullPin ? 'Y' : 'N'}${msg.prompt1}${FS_CHAR}${msg.prompt2}${FS_CHAR}${msg.processingPrompt}${timeout}`
      );
    }
    case '70': {
      checkAccount(msg.account);
      checkSessionKey(msg.sessionKey);
      if (!Number.isInteger(msg.amountCents) || msg.amountCents < 0 || msg.amountCents > 99_999_999) {
        throw new RangeError('amount must be 0..99999999 minor units');
      }
      const timeout = msg.timeout === undefined ? '' : FS_CHAR + msg.timeout;
      if (msg.timeout !== undefined) checkText('timeout', msg.timeout);
      return `70.${msg.account}${FS_CHAR}${msg.sessionKey ?? ''}${String(msg.amountCents).padStart(4, '0')}${timeout}`;
    }
    case '71':
      if (!/^[0-9A-Fa-f]{16}$/.test(msg.pinBlock)) throw new RangeError('PIN block must be 16 hex digits');
      if (!/^\d\d$/.test(msg.format)) throw new RangeError('PIN block format must be 2 digits');
      return `71.0${twoDigits(msg.pinLength, 'pinLength')}${msg.format}${msg.pinBlock.toUpperCase()}`;
    case '71-error':
      if (!/^[0-9A-Z]$/.test(msg.code)) throw new RangeError('71 error code must be one character');
      return `71${msg.code}`;
    case '73':
      if (!/^[0-9A-Fa-f]{16}$/.test(msg.pinBlock)) throw new RangeError('PIN block must be 16 hex digits');
      return `73.00000${compressKsn(msg.ksn)}${msg.pinBlock.toUpperCase()}`;
    case '72':
      return '72';
    case 'Z2':
      checkText('display text', msg.text);
      return `Z2${msg.clear ? SUB_CHAR : ''}${msg.text}`;
    case '08':
      if (!Number.isInteger(msg.keyIndex) || msg.keyIndex < 0 || msg.keyIndex > 9) {
        throw new RangeError('master key index must be 0..9');
      }
      return `08${msg.keyIndex}`;
  }
}

/** Whether a message travels in a management (SI/SO) or a transaction (STX/ETX) packet (§4.3). */
export function messageKind(msg: VerifoneMessage): PacketKind {
  return msg.type === '08' ? 'management' : 'transaction';
}

/** The full frame of a message, LRC included. */
export function encodeMessage(msg: VerifoneMessage, opts: EncodeOptions = {}): Uint8Array {
  const body = messageBody(msg);
  return messageKind(msg) === 'management'
    ? encodeManagementPacket(body, opts)
    : encodeTransactionPacket(body, opts);
}

/**
 * The 73 packet drops the KSN's leading F's (MX800 p.327), keeping at least the 10 digits the field
 * allows at minimum; `expandKsn` pads them back.
 */
export function compressKsn(ksn: string): string {
  if (!/^[0-9A-Fa-f]{20}$/.test(ksn)) throw new RangeError('KSN must be 20 hex digits');
  let i = 0;
  while (i < 10 && (ksn[i] === 'F' || ksn[i] === 'f')) i += 1;
  return ksn.slice(i).toUpperCase();
}

export function expandKsn(compressed: string): string {
  return compressed.toUpperCase().padStart(20, 'F');
}

function splitFs(s: string): string[] {
  return s.split(FS_CHAR);
}

/**
 * Parses a packet body into a message; an unrecognised or malformed body yields `unknown` rather than
 * throwing, since the decoder hands us whatever arrived on the wire.
 */
export function parseMessage(kind: PacketKind, body: Uint8Array | string): VerifoneMessage | UnknownMessage {
  const text = typeof body === 'string' ? body : bodyText(body);
  const unknown: UnknownMessage = { type: 'unknown', id: text.slice(0, 3), body: text };
  if (kind === 'management') {
    const m = /^08(\d)$/.exec(text);
    return m ? { type: '08', keyIndex: Number(m[1]) } : unknown;
  }
  if (text.startsWith('Z62.')) return parseZ62(text) ?? unknown;
  if (text.startsWith('70.')) return parse70(text) ?? unknown;
  if (text.startsWith('73.')) return parse73(text) ?? unknown;
  if (text.startsWith('71')) return parse71(text) ?? unknown;
  if (text === '72') return { type: '72' };
  if (text.startsWith('Z2')) {
    const rest = text.slice(2);
    const clear = rest.startsWith(SUB_CHAR);
    return { type: 'Z2', clear, text: clear ? rest.slice(1) : rest };
  }
  return unknown;
}

function parseZ62(text: string): Z62Request | undefined {
  const fields = splitFs(text.slice(4));
  if (fields.length < 4) return undefined;
  const [account = '', params = '', prompt2 = '', processingPrompt = '', timeout] = fields;
  if (!/^\d{8,19}$/.test(account)) return undefined;
  // The DUKPT variant starts with minPIN maxPIN Y/N; a session key would put a hex digit at index 4.
  let sessionKey: string | undefined;
  let rest = params;
  if (!/^\d{4}[YN]/.test(params)) {
    const m = /^([0-9A-Fa-f]{32}|[0-9A-Fa-f]{16})(?=\d{4}[YN])/.exec(params);
    if (!m?.[1]) return undefined;
    sessionKey = m[1];
    rest = params.slice(sessionKey.length);
  }
  const m = /^(\d\d)(\d\d)([YN])(.*)$/s.exec(rest);
  if (!m) return undefined;
  const req: Z62Request = {
    type: 'Z62',
    account,
    minPinLength: Number(m[1]),
    maxPinLength: Number(m[2]),
    allowNullPin: m[3] === 'Y',
    prompt1: m[4] ?? '',
    prompt2,
    processingPrompt,
  };
  if (sessionKey !== undefined) req.sessionKey = sessionKey;
  if (timeout !== undefined) req.timeout = timeout;
  return req;
}

function parse70(text: string): PinRequest70 | undefined {
  const [account = '', keyAndAmount = '', timeout] = splitFs(text.slice(3));
  if (!/^\d{8,19}$/.test(account)) return undefined;
  // Amount alone is 4..8 digits; with a 16/32-hex key in front the field is 20..24 or 36..40 long.
  let sessionKey: string | undefined;
  let amount = keyAndAmount;
  if (keyAndAmount.length >= 36) {
    sessionKey = keyAndAmount.slice(0, 32);
    amount = keyAndAmount.slice(32);
  } else if (keyAndAmount.length >= 20) {
    sessionKey = keyAndAmount.slice(0, 16);
    amount = keyAndAmount.slice(16);
  }
  if (sessionKey !== undefined && !HEX16_OR_32.test(sessionKey)) return undefined;
  if (!/^\d{4,8}$/.test(amount)) return undefined;
  const req: PinRequest70 = { type: '70', account, amountCents: Number(amount) };
  if (sessionKey !== undefined) req.sessionKey = sessionKey;
  if (timeout !== undefined) req.timeout = timeout;
  return req;
}

function parse71(text: string): MsPinResponse71 | PinError71 | undefined {
  const ok = /^71\.0(\d\d)(\d\d)([0-9A-Fa-f]{16})$/.exec(text);
  if (ok) return { type: '71', pinLength: Number(ok[1]), format: ok[2] ?? '', pinBlock: ok[3] ?? '' };
  const err = /^71([0-9A-Z])$/.exec(text);
  if (err?.[1] !== undefined) {
    return { type: '71-error', code: err[1], meaning: PIN_ERROR_CODES[err[1]] ?? 'unknown error' };
  }
  return undefined;
}

function parse73(text: string): DukptPinResponse73 | undefined {
  const m = /^73\.00000([0-9A-Fa-f]{10,20})([0-9A-Fa-f]{16})$/.exec(text);
  if (!m?.[1] || !m[2]) return undefined;
  return { type: '73', ksn: expandKsn(m[1]), pinBlock: m[2].toUpperCase() };
}
