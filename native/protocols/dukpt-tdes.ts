import { desEncryptBlock, tdesDecryptBlock, tdesEncryptBlock } from './block-cipher';
import { bytesToHex, hexToBytes, isHex, xorBytes } from './hex';
import { decodePinBlockFormat0, encodePinBlockFormat0, PinBlockError } from './iso9564-pin-block';

/**
 * ANSI X9.24-1:2009 TDES DUKPT, host side: derive the IPEK from the BDK, the transaction key from the IPEK
 * and KSN, and the PIN-encryption variant; then the format-0 PIN block as the PIN pad's packet 73 carries it
 * (docs/devices.md §4.3).
 */

export type DukptErrorCode = 'bdk' | 'ipek' | 'ksn' | 'counter' | 'key';

/** Never carries key material or the KSN: only which input was malformed. */
export class DukptError extends Error {
  override readonly name = 'DukptError';
  readonly code: DukptErrorCode;
  constructor(code: DukptErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export { PinBlockError };

// X9.24-1 A.6: the "C0C0C0C000000000" mask yields the right half of the IPEK and of each future key.
const KEY_MASK = hexToBytes('C0C0C0C000000000C0C0C0C000000000');
// X9.24-1 A.6 (PIN encryption variant): XOR into the last byte of each half of the transaction key.
const PIN_VARIANT = hexToBytes('00000000000000FF00000000000000FF');
// The transaction counter is the rightmost 21 bits of the 80-bit KSN (X9.24-1 A.2).
const COUNTER_BITS = 21;
const COUNTER_MASK = (1 << COUNTER_BITS) - 1;

const SHORT_OR_FULL_KSN = /^[0-9a-fA-F]{10,20}$/;

/**
 * Accepts a full 10-byte KSN or the shortened form a VeriFone packet 73 sends ("leading F's dropped",
 * docs/devices.md §4.3: 10-20 hex digits) and restores the dropped F's.
 */
export function normalizeKsnTdes(ksnHex: string): string {
  if (!SHORT_OR_FULL_KSN.test(ksnHex)) throw new DukptError('ksn', 'KSN must be 10 to 20 hex digits');
  return ksnHex.toUpperCase().padStart(20, 'F');
}

/** The 21-bit transaction counter of a (possibly shortened) KSN. */
export function ksnCounterTdes(ksnHex: string): number {
  const ksn = hexToBytes(normalizeKsnTdes(ksnHex));
  return (((ksn[7] ?? 0) << 16) | ((ksn[8] ?? 0) << 8) | (ksn[9] ?? 0)) & COUNTER_MASK;
}

/** Rightmost 8 bytes of the KSN with the counter cleared (the "KSN register" of A.2). */
function ksnBaseRight8(ksn: Uint8Array): Uint8Array {
  const r = ksn.slice(2, 10);
  r[5] = (r[5] ?? 0) & 0xe0;
  r[6] = 0;
  r[7] = 0;
  return r;
}

function key16(hex: string, code: DukptErrorCode, what: string): Uint8Array {
  if (!isHex(hex, 16)) throw new DukptError(code, `${what} must be a double-length TDES key (32 hex digits)`);
  return hexToBytes(hex);
}

/**
 * X9.24-1 A.6 "Initial PIN Encryption Key": TDES-encrypt the leftmost 8 bytes of the KSN (counter cleared)
 * under the BDK for the left half, and under BDK ⊕ C0C0C0C000000000C0C0C0C000000000 for the right half.
 */
export function deriveIpekTdes(bdkHex: string, ksnHex: string): string {
  const bdk = key16(bdkHex, 'bdk', 'BDK');
  const ksn = hexToBytes(normalizeKsnTdes(ksnHex));
  const data = ksn.slice(0, 8);
  data[7] = (data[7] ?? 0) & 0xe0;
  const left = tdesEncryptBlock(bdk, data);
  const right = tdesEncryptBlock(xorBytes(bdk, KEY_MASK), data);
  return bytesToHex(Uint8Array.from([...left, ...right]));
}

/** X9.24-1 A.2 "Non-reversible Key Generation Process" on one 8-byte crypto register. */
function nonReversibleKeyGen(key: Uint8Array, data: Uint8Array): Uint8Array {
  const half = (k: Uint8Array): Uint8Array => {
    const kl = k.subarray(0, 8);
    const kr = k.subarray(8, 16);
    return xorBytes(desEncryptBlock(kl, xorBytes(data, kr)), kr);
  };
  const right = half(key);
  const left = half(xorBytes(key, KEY_MASK));
  return Uint8Array.from([...left, ...right]);
}

// rule: dukpt-tdes
/**
 * Host-side transaction key (X9.24-1 A.3/A.4): starting from the IPEK, for each set bit of the counter from
 * the most significant, set it in the KSN register and run the non-reversible key generation. This covers
 * the counters an originating device reaches after skipping values with more than ten one-bits (the
 * "EFF800"-style rows of Annex A.4) without special cases. Counter 0 names no transaction key.
 */
export function deriveTransactionKeyTdes(ipekHex: string, ksnHex: string): string {
  let key = key16(ipekHex, 'ipek', 'IPEK');
  const ksn = hexToBytes(normalizeKsnTdes(ksnHex));
  const counter = ksnCounterTdes(ksnHex);
  if (counter === 0) throw new DukptError('counter', 'KSN transaction counter is zero');
  const register = ksnBaseRight8(ksn);
  for (let bit = 1 << (COUNTER_BITS - 1); bit > 0; bit >>>= 1) {
    if ((counter & bit) === 0) continue;
    register[5] = (register[5] ?? 0) | ((bit >>> 16) & 0xff);
    register[6] = (register[6] ?? 0) | ((bit >>> 8) & 0xff);
    register[7] = (register[7] ?? 0) | (bit & 0xff);
    key = nonReversibleKeyGen(key, register);
  }
  return bytesToHex(key);
}

/** X9.24-1 A.6 PIN encryption variant of a transaction key. */
export function pinKeyFromTransactionKey(transactionKeyHex: string): string {
  return bytesToHex(xorBytes(key16(transactionKeyHex, 'key', 'transaction key'), PIN_VARIANT));
}

/** PIN-encryption key for a transaction, from the BDK and the KSN the PIN pad sent. */
export function derivePinKeyTdes(bdkHex: string, ksnHex: string): string {
  return pinKeyFromTransactionKey(deriveTransactionKeyTdes(deriveIpekTdes(bdkHex, ksnHex), ksnHex));
}

export type TdesDukptEncryptInput = { bdk: string; ksn: string; pin: string; pan: string };
export type TdesDukptDecryptInput = { bdk: string; ksn: string; pinBlock: string; pan: string };

/** What a DUKPT PIN pad returns: ISO 9564 format 0 block, TDES-encrypted under the PIN variant key. */
export function encryptTdesDukptPinBlock(a: TdesDukptEncryptInput): string {
  const clear = encodePinBlockFormat0(a.pin, a.pan);
  const key = hexToBytes(derivePinKeyTdes(a.bdk, a.ksn));
  return bytesToHex(tdesEncryptBlock(key, hexToBytes(clear)));
}

/**
 * Recovers the clear PIN. Anything wrong with what the PIN pad sent (KSN, block, PAN, or a block that does
 * not decrypt to a valid format-0 PIN, which is what a wrong key looks like) throws PinBlockError; a
 * malformed BDK is a configuration fault and throws DukptError.
 */
export function decryptTdesDukptPinBlock(a: TdesDukptDecryptInput): string {
  if (!isHex(a.pinBlock, 8)) throw new PinBlockError('block', 'format 0 PIN block must be 16 hex digits');
  if (!SHORT_OR_FULL_KSN.test(a.ksn) || ksnCounterTdes(a.ksn) === 0) {
    throw new PinBlockError('ksn', 'KSN must be 10 to 20 hex digits with a non-zero counter');
  }
  const key = hexToBytes(derivePinKeyTdes(a.bdk, a.ksn));
  const clear = bytesToHex(tdesDecryptBlock(key, hexToBytes(a.pinBlock)));
  return decodePinBlockFormat0(clear, a.pan);
}
