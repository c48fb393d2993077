import { EmvKeyError } from './emv-keys';
import { desEcbEncrypt, macIso9797Alg3Tdes } from './iso9797-mac';

/**
 * Mastercard's dynamic CVC3 (PayPass/M/Chip contactless magstripe mode): IVCVC3 = the rightmost 2 bytes
 * of MAC algorithm 3 (padding 2) over the track template under the ICC CVC3 key; CVC3 = the rightmost 2
 * bytes of TDES(key)[IVCVC3 || UN || ATC], as a decimal number. The card puts its least significant
 * digits in the track's discretionary data.
 */
export function generateCvc3(
  iccCvc3Key: Uint8Array,
  trackTemplate: Uint8Array,
  atc: Uint8Array,
  unpredictableNumber: Uint8Array,
): string {
  if (iccCvc3Key.length !== 16) throw new EmvKeyError('the ICC CVC3 key must be a double-length TDES key');
  if (atc.length !== 2) throw new EmvKeyError('the ATC is 2 bytes');
  if (unpredictableNumber.length !== 4) throw new EmvKeyError('the unpredictable number is 4 bytes');
  const iv = macIso9797Alg3Tdes(iccCvc3Key, trackTemplate, 2).slice(6, 8);
  const block = new Uint8Array(8);
  block.set(iv, 0);
  block.set(unpredictableNumber, 2);
  block.set(atc, 6);
  const out = desEcbEncrypt(iccCvc3Key, block);
  return String(((out[6] ?? 0) << 8) | (out[7] ?? 0));
}
