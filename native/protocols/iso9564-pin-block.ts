import { randomBytes } from 'node:crypto';
import { aesDecryptBlock, aesEncryptBlock } from './block-cipher';
import { bytesToHex, hexToBytes, isHex, xorBytes } from './hex';

/**
 * ISO 9564-1 PIN blocks: format 0 (the "ISO-0"/ANSI X9.8 block DUKPT PIN pads send, packet 71 "01" and 73,
 * docs/devices.md §4.3) and format 4 (the AES block of ISO 9564-1:2017 §9.4.2).
 *
 * The PAN is not Luhn-checked: the published PIN-block examples use PANs that fail Luhn, and the block
 * only binds the PIN to the account digits as given.
 */

export type PinBlockErrorCode =
  | 'pin' // PIN to encode is not 4-12 decimal digits
  | 'pan' // PAN is not 8-19 decimal digits
  | 'block' // the PIN block is not hex of the format's size
  | 'key' // key is not an AES key
  | 'ksn' // key serial number of a DUKPT block is malformed
  | 'format' // control field is not the expected format number
  | 'length' // PIN length field outside 4-12
  | 'digit' // a PIN digit nibble is not 0-9
  | 'fill'; // fill nibbles are not the format's fill value

/** Never carries the PIN, PAN, block or key: only which rule failed. */
export class PinBlockError extends Error {
  override readonly name = 'PinBlockError';
  readonly code: PinBlockErrorCode;
  constructor(code: PinBlockErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

const PIN_RE = /^\d{4,12}$/;
// ISO/IEC 7812-1:2017 allows 8-19 digit PANs; PIN pads refuse shorter accounts (PP791 packet 71 error '2').
const PAN_RE = /^\d{8,19}$/;

function checkPin(pin: string): void {
  if (!PIN_RE.test(pin)) throw new PinBlockError('pin', 'PIN must be 4 to 12 decimal digits');
}

function checkPan(pan: string): void {
  if (!PAN_RE.test(pan)) throw new PinBlockError('pan', 'PAN must be 8 to 19 decimal digits');
}

/**
 * Format 0 PAN field (ISO 9564-1 §9.3.1): 0000 then the 12 rightmost PAN digits excluding the check digit,
 * left-padded with zeros for short PANs.
 */
function panFieldFormat0(pan: string): Uint8Array {
  const digits = pan.slice(0, -1).slice(-12).padStart(12, '0');
  return hexToBytes(`0000${digits}`);
}

/** The 8-byte clear PIN field: control nibble `format`, length nibble, digits, then `fill`. */
function pinField(format: number, pin: string, fill: string): string {
  return `${format.toString(16)}${pin.length.toString(16)}${pin}`.padEnd(16, fill).toUpperCase();
}

/** Reads and validates the first 16 nibbles of a clear PIN field; returns the PIN. */
function readPinField(fieldHex: string, format: string, fill: string): string {
  if (fieldHex[0] !== format)
    throw new PinBlockError('format', `PIN block control field is not format ${format}`);
  const len = parseInt(fieldHex[1] ?? 'x', 16);
  if (!(len >= 4 && len <= 12)) throw new PinBlockError('length', 'PIN length field outside 4-12');
  const pin = fieldHex.slice(2, 2 + len);
  if (!/^\d+$/.test(pin)) throw new PinBlockError('digit', 'PIN field holds a non-decimal digit');
  const rest = fieldHex.slice(2 + len, 16);
  if (rest !== fill.repeat(rest.length))
    throw new PinBlockError('fill', 'PIN block fill is not the format fill');
  return pin;
}

// rule: pin-block-format-0
/** ISO 9564-1 format 0: returns the 8-byte clear PIN block as 16 upper-case hex digits. */
export function encodePinBlockFormat0(pin: string, pan: string): string {
  checkPin(pin);
  checkPan(pan);
  const pinBlock = hexToBytes(pinField(0, pin, 'F'));
  return bytesToHex(xorBytes(pinBlock, panFieldFormat0(pan)));
}

/** Inverse of {@link encodePinBlockFormat0}; throws PinBlockError on any malformed block. */
export function decodePinBlockFormat0(blockHex: string, pan: string): string {
  if (!isHex(blockHex, 8)) throw new PinBlockError('block', 'format 0 PIN block must be 16 hex digits');
  checkPan(pan);
  const field = bytesToHex(xorBytes(hexToBytes(blockHex), panFieldFormat0(pan)));
  return readPinField(field, '0', 'F');
}

/**
 * Format 4 PAN field (ISO 9564-1:2017 §9.4.2.3): nibble M = PAN length - 12 (0 when shorter, the PAN then
 * left-padded with zeros to 12 digits), the PAN digits, zero-filled to 128 bits.
 */
function panFieldFormat4(pan: string): Uint8Array {
  const m = Math.max(pan.length - 12, 0);
  const digits = pan.padStart(12, '0');
  return hexToBytes(`${m}${digits}`.padEnd(32, '0'));
}

function aesKey(keyHex: string): Uint8Array {
  if (!isHex(keyHex, 16) && !isHex(keyHex, 24) && !isHex(keyHex, 32)) {
    throw new PinBlockError('key', 'format 4 key must be an AES-128/192/256 key in hex');
  }
  return hexToBytes(keyHex);
}

export type PinBlockFormat4EncodeInput = {
  pin: string;
  pan: string;
  /** AES key, hex. */
  key: string;
  /** 8 bytes (16 hex) for the random field; only tests and vectors fix it. */
  randomPad?: string;
};

/**
 * ISO 9564-1:2017 format 4: the clear PIN field (control 4, length, digits, fill 'A', 8 random bytes) is
 * enciphered, XORed with the PAN field, and enciphered again. Returns 32 hex digits.
 */
export function encodePinBlockFormat4(a: PinBlockFormat4EncodeInput): string {
  checkPin(a.pin);
  checkPan(a.pan);
  const key = aesKey(a.key);
  let pad: Uint8Array;
  if (a.randomPad === undefined) pad = new Uint8Array(randomBytes(8));
  else if (isHex(a.randomPad, 8)) pad = hexToBytes(a.randomPad);
  else throw new PinBlockError('fill', 'format 4 random pad must be 16 hex digits');
  const field = new Uint8Array(16);
  field.set(hexToBytes(pinField(4, a.pin, 'A')), 0);
  field.set(pad, 8);
  const intermediate = xorBytes(aesEncryptBlock(key, field), panFieldFormat4(a.pan));
  return bytesToHex(aesEncryptBlock(key, intermediate));
}

export type PinBlockFormat4DecodeInput = { pinBlock: string; pan: string; key: string };

/** Inverse of {@link encodePinBlockFormat4}; throws PinBlockError on any malformed block. */
export function decodePinBlockFormat4(a: PinBlockFormat4DecodeInput): string {
  if (!isHex(a.pinBlock, 16)) throw new PinBlockError('block', 'format 4 PIN block must be 32 hex digits');
  checkPan(a.pan);
  const key = aesKey(a.key);
  const intermediate = xorBytes(aesDecryptBlock(key, hexToBytes(a.pinBlock)), panFieldFormat4(a.pan));
  const field = bytesToHex(aesDecryptBlock(key, intermediate));
  return readPinField(field, '4', 'A');
}
