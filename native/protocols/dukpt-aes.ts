import { aesEncryptBlock } from './block-cipher';
import { DukptError } from './dukpt-tdes';
import { bytesToHex, hexToBytes, isHex } from './hex';
import { decodePinBlockFormat4, encodePinBlockFormat4, PinBlockError } from './iso9564-pin-block';

/**
 * ANSI X9.24-3-2017 AES DUKPT, host side, for an AES-128 BDK and AES-128 working keys: the initial key from
 * the BDK and initial key ID, the per-transaction derivation key, the PIN-encryption working key, and the
 * ISO 9564 format 4 PIN block enciphered under it. (AES-192/256 BDKs and TDES working keys out of the
 * standard's tables are not implemented.)
 */

export { DukptError };

// X9.24-3-2017 §6.3.2 Table 2 "Key Usage Indicator" values used here.
export const AES_DUKPT_KEY_USAGE = {
  pinEncryption: 0x1000,
  macGeneration: 0x2000,
  macVerification: 0x2001,
  macBoth: 0x2002,
  dataEncrypt: 0x3000,
  dataDecrypt: 0x3001,
  dataBoth: 0x3002,
  keyDerivation: 0x8000,
  initialKey: 0x8001,
} as const;

export type AesDukptKeyUsage = (typeof AES_DUKPT_KEY_USAGE)[keyof typeof AES_DUKPT_KEY_USAGE];

// Table 3 "Algorithm Indicator": 2 = AES-128, with a 128-bit length field.
const ALGORITHM_AES128 = 0x0002;
const LENGTH_AES128 = 128;

export type AesKsn = { initialKeyId: string; counter: number };

/** The 12-byte AES DUKPT KSN: 8-byte initial key ID then 32-bit transaction counter (§6.1). */
export function parseKsnAes(ksnHex: string): AesKsn {
  if (!isHex(ksnHex, 12)) throw new DukptError('ksn', 'AES DUKPT KSN must be 24 hex digits');
  return { initialKeyId: ksnHex.slice(0, 16).toUpperCase(), counter: parseInt(ksnHex.slice(16), 16) };
}

/**
 * §6.3.2 derivation data: version 01, key block counter 01, usage, algorithm, length, then either the whole
 * initial key ID (initial key) or its rightmost 4 bytes and the counter (every other key).
 */
function derivationData(usage: number, initialKeyId: Uint8Array, counter: number): Uint8Array {
  const d = new Uint8Array(16);
  const view = new DataView(d.buffer);
  d[0] = 0x01;
  d[1] = 0x01;
  view.setUint16(2, usage);
  view.setUint16(4, ALGORITHM_AES128);
  view.setUint16(6, LENGTH_AES128);
  if (usage === AES_DUKPT_KEY_USAGE.initialKey) d.set(initialKeyId, 8);
  else {
    d.set(initialKeyId.subarray(4, 8), 8);
    view.setUint32(12, counter >>> 0);
  }
  return d;
}

function aes128Key(hex: string, code: 'bdk' | 'key', what: string): Uint8Array {
  if (!isHex(hex, 16)) throw new DukptError(code, `${what} must be an AES-128 key (32 hex digits)`);
  return hexToBytes(hex);
}

/** §6.3.3 "Derive Initial Key": AES-ECB of the initial-key derivation data under the BDK. */
export function deriveInitialKeyAes(bdkHex: string, initialKeyIdHex: string): string {
  const bdk = aes128Key(bdkHex, 'bdk', 'BDK');
  if (!isHex(initialKeyIdHex, 8)) throw new DukptError('ksn', 'initial key ID must be 16 hex digits');
  const data = derivationData(AES_DUKPT_KEY_USAGE.initialKey, hexToBytes(initialKeyIdHex), 0);
  return bytesToHex(aesEncryptBlock(bdk, data));
}

/**
 * §6.5 host "Derive Working Key", first half: from the initial key, one derivation per set counter bit
 * from the most significant, each keyed by the previous result. Returns the transaction's derivation key.
 */
export function deriveDerivationKeyAes(initialKeyHex: string, ksnHex: string): string {
  let key = aes128Key(initialKeyHex, 'key', 'initial key');
  const { initialKeyId, counter } = parseKsnAes(ksnHex);
  if (counter === 0) throw new DukptError('counter', 'KSN transaction counter is zero');
  const ikid = hexToBytes(initialKeyId);
  let working = 0;
  for (let bit = 31; bit >= 0; bit -= 1) {
    if (((counter >>> bit) & 1) === 0) continue;
    working = (working | (1 << bit)) >>> 0;
    key = aesEncryptBlock(key, derivationData(AES_DUKPT_KEY_USAGE.keyDerivation, ikid, working));
  }
  return bytesToHex(key);
}

/** §6.5 second half: an AES-128 working key of the given usage from the transaction's derivation key. */
export function deriveWorkingKeyAes(
  derivationKeyHex: string,
  ksnHex: string,
  usage: AesDukptKeyUsage,
): string {
  const key = aes128Key(derivationKeyHex, 'key', 'derivation key');
  const { initialKeyId, counter } = parseKsnAes(ksnHex);
  return bytesToHex(aesEncryptBlock(key, derivationData(usage, hexToBytes(initialKeyId), counter)));
}

/** PIN-encryption key for a transaction, from the BDK and the 12-byte KSN. */
export function derivePinKeyAes(bdkHex: string, ksnHex: string): string {
  const { initialKeyId } = parseKsnAes(ksnHex);
  const derivationKey = deriveDerivationKeyAes(deriveInitialKeyAes(bdkHex, initialKeyId), ksnHex);
  return deriveWorkingKeyAes(derivationKey, ksnHex, AES_DUKPT_KEY_USAGE.pinEncryption);
}

export type AesDukptEncryptInput = { bdk: string; ksn: string; pin: string; pan: string; randomPad?: string };
export type AesDukptDecryptInput = { bdk: string; ksn: string; pinBlock: string; pan: string };

/** ISO 9564 format 4 PIN block under the transaction's AES PIN key (X9.24-3 pairs AES DUKPT with format 4). */
export function encryptAesDukptPinBlock(a: AesDukptEncryptInput): string {
  const key = derivePinKeyAes(a.bdk, a.ksn);
  return encodePinBlockFormat4({
    pin: a.pin,
    pan: a.pan,
    key,
    ...(a.randomPad === undefined ? {} : { randomPad: a.randomPad }),
  });
}

/** Recovers the clear PIN; request-data faults throw PinBlockError, a malformed BDK throws DukptError. */
export function decryptAesDukptPinBlock(a: AesDukptDecryptInput): string {
  if (!isHex(a.ksn, 12) || parseKsnAes(a.ksn).counter === 0) {
    throw new PinBlockError('ksn', 'AES DUKPT KSN must be 24 hex digits with a non-zero counter');
  }
  return decodePinBlockFormat4({ pinBlock: a.pinBlock, pan: a.pan, key: derivePinKeyAes(a.bdk, a.ksn) });
}
