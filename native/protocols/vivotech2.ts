/**
 * ID TECH ViVOpay / NGA "Protocol 2" framing (VP3300, Kiosk, NEO 2 family), docs/devices.md §3.3.
 * Pure: no I/O, no timers.
 *
 *   command  : "ViVOtech2\0" | cmd | subcmd | lenMSB | lenLSB | data | CRC   (CRC sent LSB first)
 *   response : "ViVOtech2\0" | cmd | status | lenMSB | lenLSB | data | CRC   (CRC sent MSB first)
 *   CRC-16/CCITT (poly 0x1021, init 0xFFFF, no reflection, no final XOR) over the frame from 'V'.
 *
 * The byte orders follow the manual's worked ping example and p.60, not the command tables that say
 * "CRC (MSB)" first (§3.3).
 */
import crc16ccitt from 'crc/calculators/crc16ccitt';
import { type TlvNode, decodeTlv, encodeTlv, findTlv } from './ber-tlv';

/** `ViVOtech2\0`. */
export const VIVO2_HEADER: Readonly<Uint8Array> = Uint8Array.of(
  0x56,
  0x69,
  0x56,
  0x4f,
  0x74,
  0x65,
  0x63,
  0x68,
  0x32,
  0x00,
);
const HEADER_LENGTH = 10;
/** Header + cmd + sub/status + 2 length bytes. */
const PREFIX_LENGTH = 14;

/** Status codes of responses (byte 11; NEO 2 developer's manual p.28 §1, §3.3): every Protocol 2 reader's. */
export const VIVO2_STATUS = {
  ok: 0x00,
  incorrectHeaderTag: 0x01,
  unknownCommand: 0x02,
  unknownSubCommand: 0x03,
  crcError: 0x04,
  incorrectParameter: 0x05,
  parameterNotSupported: 0x06,
  malformattedData: 0x07,
  timeout: 0x08,
  failed: 0x0a,
  commandNotAllowed: 0x0b,
  subCommandNotAllowed: 0x0c,
  bufferOverflow: 0x0d,
  userInterfaceEvent: 0x0e,
  requestOnlineAuthorization: 0x23,
} as const;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  0x00: 'OK',
  0x01: 'incorrect header tag',
  0x02: 'unknown command',
  0x03: 'unknown sub-command',
  0x04: 'CRC error in frame',
  0x05: 'incorrect parameter',
  0x06: 'parameter not supported',
  0x07: 'mal-formatted data',
  0x08: 'timeout',
  0x0a: 'failed / NACK',
  0x0b: 'command not allowed',
  0x0c: 'sub-command not allowed',
  0x0d: 'buffer overflow (data length too large for reader buffer)',
  0x0e: 'user interface event',
  0x10: 'bootloader: need to download firmware',
  0x11: 'bootloader: firmware download failed',
  0x1d: 'tamper occurred',
  0x23: 'request online authorization',
  0x24: 'ViVOCard3 raw data read successful',
  0x50: 'auto-switch OK',
  0x51: 'auto-switch failed',
  0x60: 'terminal data does not exist',
  0x61: 'AID list full',
  0x62: 'flash error',
  0x70: 'antenna error',
  0x80: 'use another card',
  0x81: 'insert or swipe card',
  0x90: 'data encryption key does not exist',
  0x91: 'data encryption key KSN exhausted',
};

/**
 * Human text of a status code, for logs and the tech's diagnostics (the NEO 2 table; secure-comm 12–1C,
 * module 20–2A, keys 41–4F grouped).
 */
export function vivo2StatusText(status: number): string {
  const known = STATUS_TEXT[status];
  if (known !== undefined) return known;
  if (status >= 0x12 && status <= 0x1c) return 'secure communication / SAM error';
  if (status >= 0x20 && status <= 0x2a) return 'module-specific error';
  if (status >= 0x41 && status <= 0x4f) return 'key manager error';
  return `unknown status 0x${status.toString(16).padStart(2, '0')}`;
}

/** Commands this project uses (cmd, sub). */
export const VIVO2_COMMANDS = {
  ping: { cmd: 0x18, sub: 0x01 },
  getConfiguration: { cmd: 0x03, sub: 0x02 },
  /** Data `[led, red, green]` (§3.3, p.283). */
  led: { cmd: 0x0a, sub: 0x03 },
  /** The sub-command selects the beep pattern (§3.3, p.283). */
  buzzer: { cmd: 0x0b },
  /** Activate transaction: data = timeout seconds (1 byte) then EMV TLVs. */
  activateTransaction: { cmd: 0x02, sub: 0x01 },
  /** Cancel transaction. */
  cancelTransaction: { cmd: 0x05, sub: 0x01 },
} as const;

/** CRC-16/CCITT-FALSE of `bytes[start..end)`. */
export function vivo2Crc(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return crc16ccitt(bytes.subarray(start, end));
}

function encodeFrame(cmd: number, second: number, data: Uint8Array, crcLsbFirst: boolean): Uint8Array {
  if (data.length > 0xffff) throw new RangeError('ViVOtech2 data longer than 65535 bytes');
  const out = new Uint8Array(PREFIX_LENGTH + data.length + 2);
  out.set(VIVO2_HEADER, 0);
  out[10] = cmd & 0xff;
  out[11] = second & 0xff;
  out[12] = data.length >> 8;
  out[13] = data.length & 0xff;
  out.set(data, PREFIX_LENGTH);
  const crc = vivo2Crc(out, 0, PREFIX_LENGTH + data.length);
  const hi = crc >> 8;
  const lo = crc & 0xff;
  out[PREFIX_LENGTH + data.length] = crcLsbFirst ? lo : hi;
  out[PREFIX_LENGTH + data.length + 1] = crcLsbFirst ? hi : lo;
  return out;
}

/** A host → reader command frame (CRC LSB first). */
export function encodeVivo2Command(
  cmd: number,
  sub: number,
  data: Uint8Array = new Uint8Array(0),
): Uint8Array {
  return encodeFrame(cmd, sub, data, true);
}

/** A reader → host response frame (CRC MSB first). */
export function encodeVivo2Response(
  cmd: number,
  status: number,
  data: Uint8Array = new Uint8Array(0),
): Uint8Array {
  return encodeFrame(cmd, status, data, false);
}

export function buildPing(): Uint8Array {
  return encodeVivo2Command(VIVO2_COMMANDS.ping.cmd, VIVO2_COMMANDS.ping.sub);
}

export function buildGetConfiguration(): Uint8Array {
  return encodeVivo2Command(VIVO2_COMMANDS.getConfiguration.cmd, VIVO2_COMMANDS.getConfiguration.sub);
}

/** LED control: `led` index (0xFF = all), red/green on (§3.3). */
export function buildLed(led: number, red: boolean, green: boolean): Uint8Array {
  return encodeVivo2Command(
    VIVO2_COMMANDS.led.cmd,
    VIVO2_COMMANDS.led.sub,
    Uint8Array.of(led & 0xff, red ? 1 : 0, green ? 1 : 0),
  );
}

/** Buzzer: the sub-command is the beep pattern (1 = one short beep). */
export function buildBuzzer(pattern = 0x01): Uint8Array {
  return encodeVivo2Command(VIVO2_COMMANDS.buzzer.cmd, pattern);
}

/** Cancel a pending activate-transaction. */
export function buildCancelTransaction(): Uint8Array {
  return encodeVivo2Command(VIVO2_COMMANDS.cancelTransaction.cmd, VIVO2_COMMANDS.cancelTransaction.sub);
}

// ---------------------------------------------------------------------------------------------------
// Activate Transaction (cmd 0x02 sub 0x01)
//
// Data = timeout in seconds (1 byte) then EMV TLVs of the transaction (amount 9F02, type 9C, currency
// 5F2A, date 9A). The reader answers once a card is tapped or the timeout passes (status 08). Real
// NEO 2 firmware returns track equivalents and a clearing record ahead of the TLVs; here the response
// data is the EMV TLV list alone, which is what the terminal forwards as EmvData.

export type ActivateTransactionRequest = {
  amountCents: number;
  /** Seconds the reader waits for a card. Default 30. */
  timeoutSeconds?: number;
  /** 9C: 0x00 purchase, 0x20 refund. Default 0x00. */
  transactionType?: number;
  /** 5F2A: ISO 4217 numeric. Default 840 (USD). */
  currencyCode?: number;
  /** 9A, YYMMDD. Default: omitted (the reader's clock). */
  date?: string;
};

/** Packs decimal digits as BCD, left-padded with zeros to `bytes` bytes (EMV format n). */
export function toBcd(value: number | string, bytes: number): Uint8Array {
  const digits = String(value).padStart(bytes * 2, '0');
  if (!/^\d+$/.test(digits) || digits.length > bytes * 2) throw new RangeError('BCD value does not fit');
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i += 1) {
    out[i] = ((digits.charCodeAt(2 * i) - 48) << 4) | (digits.charCodeAt(2 * i + 1) - 48);
  }
  return out;
}

/** Unpacks BCD to its decimal digits (nibbles above 9 come out as hex letters, i.e. malformed). */
export function fromBcd(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += (b >> 4).toString(16) + (b & 0x0f).toString(16);
  return s;
}

function activateTlvs(req: ActivateTransactionRequest): TlvNode[] {
  if (!Number.isInteger(req.amountCents) || req.amountCents < 0 || req.amountCents > 999_999_999_999) {
    throw new RangeError('amount must be a whole number of minor units that fits n12');
  }
  const nodes: TlvNode[] = [
    { tag: '9F02', value: toBcd(req.amountCents, 6) },
    { tag: '9C', value: toBcd(req.transactionType ?? 0, 1) },
    { tag: '5F2A', value: toBcd(req.currencyCode ?? 840, 2) },
  ];
  if (req.date !== undefined) {
    if (!/^\d{6}$/.test(req.date)) throw new RangeError('date must be YYMMDD');
    nodes.push({ tag: '9A', value: toBcd(req.date, 3) });
  }
  return nodes;
}

/** The Activate Transaction command frame. */
export function buildActivateTransaction(req: ActivateTransactionRequest): Uint8Array {
  const tlv = encodeTlv(activateTlvs(req));
  const data = new Uint8Array(1 + tlv.length);
  data[0] = Math.min(255, Math.max(1, Math.round(req.timeoutSeconds ?? 30)));
  data.set(tlv, 1);
  return encodeVivo2Command(
    VIVO2_COMMANDS.activateTransaction.cmd,
    VIVO2_COMMANDS.activateTransaction.sub,
    data,
  );
}

/**
 * Reads an Activate Transaction command's data (the simulator's side). Returns undefined when the data
 * is not a timeout byte followed by TLVs carrying at least the amount.
 */
export function parseActivateTransactionData(data: Uint8Array): ActivateTransactionRequest | undefined {
  if (data.length < 1) return undefined;
  let nodes: TlvNode[];
  try {
    nodes = decodeTlv(data.subarray(1));
  } catch {
    return undefined;
  }
  const amount = findTlv(nodes, '9F02');
  if (!amount || amount.value.length !== 6) return undefined;
  const amountDigits = fromBcd(amount.value);
  if (!/^\d{12}$/.test(amountDigits)) return undefined;
  const req: ActivateTransactionRequest = { amountCents: Number(amountDigits), timeoutSeconds: data[0] ?? 0 };
  const type = findTlv(nodes, '9C');
  if (type?.value.length === 1) req.transactionType = Number(fromBcd(type.value));
  const currency = findTlv(nodes, '5F2A');
  if (currency?.value.length === 2) req.currencyCode = Number(fromBcd(currency.value));
  const date = findTlv(nodes, '9A');
  if (date?.value.length === 3) req.date = fromBcd(date.value);
  return req;
}

export type ActivateTransactionResult =
  { ok: true; tlv: TlvNode[]; raw: Uint8Array } | { ok: false; status: number; reason: string };

/** Reads the reader's answer to Activate Transaction: EMV TLVs on status 00, else the status. */
export function parseActivateTransactionResponse(frame: Vivo2Frame): ActivateTransactionResult {
  if (!frame.crcOk) return { ok: false, status: VIVO2_STATUS.crcError, reason: 'response CRC mismatch' };
  if (frame.subOrStatus !== VIVO2_STATUS.ok) {
    return { ok: false, status: frame.subOrStatus, reason: vivo2StatusText(frame.subOrStatus) };
  }
  try {
    return { ok: true, tlv: decodeTlv(frame.data), raw: frame.data };
  } catch {
    return { ok: false, status: VIVO2_STATUS.malformattedData, reason: 'response data is not BER-TLV' };
  }
}

// ---------------------------------------------------------------------------------------------------
// Decoding

export type Vivo2Frame = {
  cmd: number;
  /** Sub-command in a command frame, status in a response frame. */
  subOrStatus: number;
  data: Uint8Array;
  /** CRC as read in the direction's byte order. */
  crc: number;
  crcOk: boolean;
};

export type Vivo2Direction = 'command' | 'response';

export type Vivo2DecoderOptions = {
  /** Which side's frames to expect: a reader decodes commands, a host decodes responses. */
  direction: Vivo2Direction;
  /** Longest data accepted before the frame is dropped as garbage. Default 4096. */
  maxDataLength?: number;
};

// KMP failure table of the header, so "ViViVOtech2" still matches from the second 'V'.
const HEADER_FAIL: Readonly<Int8Array> = (() => {
  const fail = new Int8Array(HEADER_LENGTH);
  let k = 0;
  for (let i = 1; i < HEADER_LENGTH; i += 1) {
    while (k > 0 && VIVO2_HEADER[i] !== VIVO2_HEADER[k]) k = fail[k - 1] ?? 0;
    if (VIVO2_HEADER[i] === VIVO2_HEADER[k]) k += 1;
    fail[i] = k;
  }
  return fail;
})();

/**
 * Incremental Protocol 2 decoder: finds `ViVOtech2\0`, reads the length, data and CRC, and yields a
 * frame with its CRC verdict. Noise before a header is skipped and counted; an implausible length drops
 * the frame and resynchronises.
 */
export class Vivo2Decoder {
  private readonly lsbFirst: boolean;
  private readonly maxData: number;
  private buf: Uint8Array;
  /** Bytes of the header matched so far (before the header is complete). */
  private matched = 0;
  /** Bytes of the frame stored in `buf` once the header is complete. */
  private len = 0;
  private need = 0;
  droppedBytes = 0;

  constructor(opts: Vivo2DecoderOptions) {
    this.lsbFirst = opts.direction === 'command';
    this.maxData = opts.maxDataLength ?? 4096;
    this.buf = new Uint8Array(256);
  }

  get hasPartial(): boolean {
    return this.matched > 0 || this.len > 0;
  }

  reset(): void {
    this.droppedBytes += this.matched + this.len;
    this.matched = 0;
    this.len = 0;
    this.need = 0;
  }

  push(chunk: Uint8Array, onFrame: (frame: Vivo2Frame) => void): void {
    for (let i = 0; i < chunk.length; i += 1) {
      const b = chunk[i] ?? 0;
      if (this.len === 0) {
        this.matchHeader(b);
        continue;
      }
      this.store(b);
      if (this.len === PREFIX_LENGTH) {
        const dataLength = ((this.buf[12] ?? 0) << 8) | (this.buf[13] ?? 0);
        if (dataLength > this.maxData) {
          this.droppedBytes += this.len;
          this.len = 0;
          continue;
        }
        this.need = PREFIX_LENGTH + dataLength + 2;
      } else if (this.len === this.need) {
        this.emit(onFrame);
      }
    }
  }

  feed(chunk: Uint8Array): Vivo2Frame[] {
    const frames: Vivo2Frame[] = [];
    this.push(chunk, (f) => frames.push(f));
    return frames;
  }

  private matchHeader(b: number): void {
    let k = this.matched;
    while (k > 0 && VIVO2_HEADER[k] !== b) k = HEADER_FAIL[k - 1] ?? 0;
    if (VIVO2_HEADER[k] === b) k += 1;
    this.droppedBytes += this.matched + 1 - k;
    if (k === HEADER_LENGTH) {
      this.buf.set(VIVO2_HEADER, 0);
      this.len = HEADER_LENGTH;
      this.need = PREFIX_LENGTH;
      this.matched = 0;
    } else {
      this.matched = k;
    }
  }

  private store(b: number): void {
    if (this.len >= this.buf.length) {
      const bigger = new Uint8Array(Math.min(this.buf.length * 2, PREFIX_LENGTH + this.maxData + 2));
      bigger.set(this.buf);
      this.buf = bigger;
    }
    this.buf[this.len] = b;
    this.len += 1;
  }

  private emit(onFrame: (frame: Vivo2Frame) => void): void {
    const end = this.need - 2;
    const a = this.buf[end] ?? 0;
    const c = this.buf[end + 1] ?? 0;
    const crc = this.lsbFirst ? (c << 8) | a : (a << 8) | c;
    const frame: Vivo2Frame = {
      cmd: this.buf[10] ?? 0,
      subOrStatus: this.buf[11] ?? 0,
      data: this.buf.slice(PREFIX_LENGTH, end),
      crc,
      crcOk: crc === vivo2Crc(this.buf, 0, end),
    };
    this.len = 0;
    this.need = 0;
    onFrame(frame);
  }
}
