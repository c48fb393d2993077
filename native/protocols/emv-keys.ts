import { createHash } from 'node:crypto';
import { desEcbEncrypt } from './iso9797-mac';

/**
 * EMV key management for the symmetric card keys (EMV 4.4 Book 2 Annex A1.3–A1.4): key check values,
 * ICC master key derivation (Options A and B) from an issuer master key, and the AC / secure-messaging
 * session keys (common session key derivation, the EMV2000 tree of EMV 4.1, Visa's secure-messaging
 * variant). Pure. Every key here is a double-length (16-byte) TDES key; errors never echo a key.
 */

export class EmvKeyError extends RangeError {
  override readonly name = 'EmvKeyError';
}

function requireKey16(key: Uint8Array, what: string): void {
  if (key.length !== 16) throw new EmvKeyError(`${what} must be a double-length (16-byte) TDES key`);
}

/** Sets the low bit of every byte so each has an odd number of one bits (DES key parity, FIPS 46-3). */
export function adjustKeyParity(key: Uint8Array): Uint8Array {
  const out = Uint8Array.from(key);
  for (let i = 0; i < out.length; i += 1) {
    let v = out[i] ?? 0;
    let ones = 0;
    for (let b = v; b > 0; b >>= 1) ones += b & 1;
    if (ones % 2 === 0) v ^= 1;
    out[i] = v;
  }
  return out;
}

/**
 * Key check value: the leftmost `length` bytes (usually 2 or 3) of the key's encryption of eight zero
 * bytes (ANSI X9.24; pyemv `key_check_digits`). Safe to show and log: it identifies a key, it does not
 * reveal it.
 */
export function keyCheckValue(key: Uint8Array, length = 3): Uint8Array {
  if (key.length !== 8 && key.length !== 16 && key.length !== 24)
    throw new EmvKeyError('a KCV is computed over a DES or TDES key (8, 16 or 24 bytes)');
  if (!Number.isInteger(length) || length < 1 || length > 8) throw new EmvKeyError('a KCV is 1 to 8 bytes');
  return desEcbEncrypt(key, new Uint8Array(8)).slice(0, length);
}

const DIGITS_RE = /^\d+$/;

function checkPanPsn(pan: string, psn: string): void {
  if (!DIGITS_RE.test(pan) || pan.length < 8 || pan.length > 19)
    throw new EmvKeyError('the PAN must be 8 to 19 decimal digits');
  if (!/^\d{2}$/.test(psn)) throw new EmvKeyError('the PAN sequence number must be 2 decimal digits');
}

function hexDigits(digits: string): Uint8Array {
  return Uint8Array.from(Buffer.from(digits, 'hex'));
}

/** Y || (Y xor FF..FF) encrypted under the issuer key, parity-adjusted (Book 2 A1.4.1 final step). */
function iccKeyFromY(issuerMasterKey: Uint8Array, y: Uint8Array): Uint8Array {
  const input = new Uint8Array(16);
  input.set(y, 0);
  for (let i = 0; i < 8; i += 1) input[8 + i] = (y[i] ?? 0) ^ 0xff;
  return adjustKeyParity(desEcbEncrypt(issuerMasterKey, input));
}

/**
 * ICC master key, Option A (Book 2 A1.4.1): Y = the rightmost 16 digits of PAN || PSN (left-padded with
 * zeros when shorter), as 8 bytes of BCD. `psn` defaults to "00" (a card without 5F34).
 */
export function deriveIccMasterKeyOptionA(issuerMasterKey: Uint8Array, pan: string, psn = '00'): Uint8Array {
  requireKey16(issuerMasterKey, 'the issuer master key');
  checkPanPsn(pan, psn);
  return iccKeyFromY(issuerMasterKey, hexDigits(`${pan}${psn}`.slice(-16).padStart(16, '0')));
}

/**
 * ICC master key, Option B (Book 2 A1.4.2), for PANs longer than 16 digits: SHA-1 over PAN || PSN (BCD,
 * left-padded with a zero nibble to whole bytes), then the first 16 decimal digits of the hash's hex,
 * topped up with its letters decimalised (a..f → 0..5). A PAN of 16 digits or fewer uses Option A, as the
 * specification says.
 */
export function deriveIccMasterKeyOptionB(issuerMasterKey: Uint8Array, pan: string, psn = '00'): Uint8Array {
  requireKey16(issuerMasterKey, 'the issuer master key');
  checkPanPsn(pan, psn);
  if (pan.length <= 16) return deriveIccMasterKeyOptionA(issuerMasterKey, pan, psn);
  const x = `${pan}${psn}`;
  const digest = createHash('sha1')
    .update(hexDigits(x.length % 2 === 0 ? x : `0${x}`))
    .digest('hex');
  let y = [...digest]
    .filter((c) => c >= '0' && c <= '9')
    .join('')
    .slice(0, 16);
  if (y.length < 16) {
    const letters = [...digest].filter((c) => c >= 'a' && c <= 'f').slice(0, 16 - y.length);
    y += letters.map((c) => String(c.charCodeAt(0) - 'a'.charCodeAt(0))).join('');
  }
  return iccKeyFromY(issuerMasterKey, hexDigits(y));
}

export type IccMasterKeyOption = 'A' | 'B';

export function deriveIccMasterKey(
  option: IccMasterKeyOption,
  issuerMasterKey: Uint8Array,
  pan: string,
  psn = '00',
): Uint8Array {
  return option === 'A'
    ? deriveIccMasterKeyOptionA(issuerMasterKey, pan, psn)
    : deriveIccMasterKeyOptionB(issuerMasterKey, pan, psn);
}

/**
 * Common session key derivation (Book 2 A1.3.1): SK = TDES(MK)[R with byte 3 = F0] ||
 * TDES(MK)[R with byte 3 = 0F], parity-adjusted, for an 8-byte diversification value R: ATC || 00..00
 * for AC keys, the ARQC for secure-messaging keys, ATC || 0000 || UN for Mastercard's SKD.
 */
export function deriveCommonSessionKey(iccMasterKey: Uint8Array, r: Uint8Array): Uint8Array {
  requireKey16(iccMasterKey, 'the ICC master key');
  if (r.length !== 8) throw new EmvKeyError('the diversification value R is 8 bytes');
  const input = new Uint8Array(16);
  input.set(r, 0);
  input.set(r, 8);
  input[2] = 0xf0;
  input[10] = 0x0f;
  return adjustKeyParity(desEcbEncrypt(iccMasterKey, input));
}

/** R = ATC || 00 00 00 00 00 00: the AC session key's diversification value of Book 2 A1.3.1. */
export function atcDiversification(atc: Uint8Array): Uint8Array {
  if (atc.length !== 2) throw new EmvKeyError('the ATC is 2 bytes');
  const r = new Uint8Array(8);
  r.set(atc, 0);
  return r;
}

/** R = ATC || 00 00 || UN: Mastercard's proprietary session key derivation (M/Chip, Interac CVN 133). */
export function atcUnDiversification(atc: Uint8Array, unpredictableNumber: Uint8Array): Uint8Array {
  if (atc.length !== 2) throw new EmvKeyError('the ATC is 2 bytes');
  if (unpredictableNumber.length !== 4) throw new EmvKeyError('the unpredictable number is 4 bytes');
  const r = new Uint8Array(8);
  r.set(atc, 0);
  r.set(unpredictableNumber, 4);
  return r;
}

export type Emv2000TreeParameters = {
  /** Tree height H; EMV 4.1 recommends 8 (with b = 4) or 16 (with b = 2). */
  height: number;
  /** Branch factor b. */
  branchFactor: number;
  /** 16-byte IV at the root's grandparent position; default zeros. */
  iv?: Uint8Array;
};

/**
 * EMV2000 tree session key derivation (EMV 4.1 Book 2 A1.3; withdrawn by SU-46 in favour of the common
 * method, kept for cards personalised with it): F(X, Y, j) = TDES(X)[Y_L xor j mod b] ||
 * TDES(X)[Y_R xor j mod b xor F0]; the key for ATC j is F(IK_{H-1}, IK_{H-2}, j) xor IK_{H-2}.
 */
export function deriveEmv2000TreeSessionKey(
  iccMasterKey: Uint8Array,
  atc: Uint8Array,
  params: Emv2000TreeParameters,
): Uint8Array {
  requireKey16(iccMasterKey, 'the ICC master key');
  if (atc.length !== 2) throw new EmvKeyError('the ATC is 2 bytes');
  const { height, branchFactor } = params;
  const iv = params.iv ?? new Uint8Array(16);
  if (iv.length !== 16) throw new EmvKeyError('the EMV2000 tree IV is 16 bytes');
  if (!Number.isInteger(height) || !Number.isInteger(branchFactor) || height < 1 || branchFactor < 2)
    throw new EmvKeyError('the tree height and branch factor must be whole numbers (H >= 1, b >= 2)');
  // Every ATC value needs its own leaf: b^H must reach the largest ATC.
  if (branchFactor ** height < 0xffff)
    throw new EmvKeyError('the tree has fewer leaves than ATC values (b^H < 65535)');

  const f = (x: Uint8Array, y: Uint8Array, j: number): Uint8Array => {
    const jb = new Uint8Array(8);
    let v = j % branchFactor;
    for (let i = 7; i >= 0 && v > 0; i -= 1) {
      jb[i] = v & 0xff;
      v = Math.floor(v / 256);
    }
    const left = new Uint8Array(8);
    const right = new Uint8Array(8);
    for (let i = 0; i < 8; i += 1) {
      left[i] = (y[i] ?? 0) ^ (jb[i] ?? 0);
      right[i] = (y[8 + i] ?? 0) ^ (jb[i] ?? 0);
    }
    right[7] = (right[7] ?? 0) ^ 0xf0;
    const out = new Uint8Array(16);
    out.set(desEcbEncrypt(x, left), 0);
    out.set(desEcbEncrypt(x, right), 8);
    return out;
  };

  // walk(j, h) returns [parent, grandparent] at level h on the path to leaf j.
  const walk = (j: number, h: number): [Uint8Array, Uint8Array] => {
    if (h === 0) return [iccMasterKey, iv];
    const [p, gp] = walk(Math.floor(j / branchFactor), h - 1);
    return [f(p, gp, j), p];
  };
  const j = ((atc[0] ?? 0) << 8) | (atc[1] ?? 0);
  const [p, gp] = walk(Math.floor(j / branchFactor), height - 1);
  const leaf = f(p, gp, j);
  const sk = new Uint8Array(16);
  for (let i = 0; i < 16; i += 1) sk[i] = (leaf[i] ?? 0) ^ (gp[i] ?? 0);
  return adjustKeyParity(sk);
}

/**
 * Visa's secure-messaging session key (VIS 1.5): left half = MK_L xor 00..00 || ATC, right half = MK_R
 * xor 00..00 || (ATC xor FFFF), parity-adjusted.
 */
export function deriveVisaSecureMessagingKey(iccMasterKey: Uint8Array, atc: Uint8Array): Uint8Array {
  requireKey16(iccMasterKey, 'the ICC master key');
  if (atc.length !== 2) throw new EmvKeyError('the ATC is 2 bytes');
  const sk = Uint8Array.from(iccMasterKey);
  sk[6] = (sk[6] ?? 0) ^ (atc[0] ?? 0);
  sk[7] = (sk[7] ?? 0) ^ (atc[1] ?? 0);
  sk[14] = (sk[14] ?? 0) ^ ((atc[0] ?? 0) ^ 0xff);
  sk[15] = (sk[15] ?? 0) ^ ((atc[1] ?? 0) ^ 0xff);
  return adjustKeyParity(sk);
}
