import { EmvKeyError } from './emv-keys';
import { desEcbEncrypt, macIso9797Alg3Tdes } from './iso9797-mac';

/**
 * The issuer's answer to the card, the Authorisation Response Cryptogram (EMV 4.4 Book 2 §8.2): the card
 * checks it in EXTERNAL AUTHENTICATE or the 2nd GENERATE AC before it trusts the issuer's decision.
 */

/**
 * ARPC method 1 (Book 2 §8.2.1): TDES(key)[ARQC xor (ARC || 00 00 00 00 00 00)], 8 bytes. Tag 91 then
 * carries ARPC || ARC.
 */
export function arpcMethod1(key: Uint8Array, arqc: Uint8Array, arc: Uint8Array): Uint8Array {
  if (key.length !== 16) throw new EmvKeyError('the ARPC key must be a double-length TDES key');
  if (arqc.length !== 8) throw new EmvKeyError('the ARQC is 8 bytes');
  if (arc.length !== 2) throw new EmvKeyError('the ARPC response code is 2 bytes');
  const block = Uint8Array.from(arqc);
  block[0] = (block[0] ?? 0) ^ (arc[0] ?? 0);
  block[1] = (block[1] ?? 0) ^ (arc[1] ?? 0);
  return desEcbEncrypt(key, block);
}

/**
 * ARPC method 2 (Book 2 §8.2.2): the leftmost 4 bytes of MAC algorithm 3, padding method 2, over ARQC ||
 * CSU || proprietary authentication data (0–8 bytes). Tag 91 then carries ARPC || CSU || that data.
 */
export function arpcMethod2(
  key: Uint8Array,
  arqc: Uint8Array,
  csu: Uint8Array,
  proprietaryAuthData: Uint8Array = new Uint8Array(0),
): Uint8Array {
  if (key.length !== 16) throw new EmvKeyError('the ARPC key must be a double-length TDES key');
  if (arqc.length !== 8) throw new EmvKeyError('the ARQC is 8 bytes');
  if (csu.length !== 4) throw new EmvKeyError('the card status update (CSU) is 4 bytes');
  if (proprietaryAuthData.length > 8)
    throw new EmvKeyError('proprietary authentication data is 0 to 8 bytes');
  const data = new Uint8Array(12 + proprietaryAuthData.length);
  data.set(arqc, 0);
  data.set(csu, 8);
  data.set(proprietaryAuthData, 12);
  return macIso9797Alg3Tdes(key, data, 2, 4);
}
