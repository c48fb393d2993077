import { type Iso9797Padding, macIso9797Alg3Tdes } from './iso9797-mac';

/**
 * Application cryptograms (ARQC, TC, AAC): EMV 4.4 Book 2 §8.1.2 and Annex A1.2 — ISO/IEC 9797-1 MAC
 * algorithm 3 under the AC session key (or, for Visa CVN 10, the ICC master key itself) over the data the
 * card's CDOL asked for, padded with method 2 (EMV) or method 1 (Visa's CVN 10). The card, the simulator
 * and the sandbox issuer all compute it here, so they cannot disagree on the algorithm.
 */

/** The recommended minimum data of Book 2 Table 26 (§8.1.1), in this order, with their lengths. */
export const AC_DATA_TAGS: readonly { tag: string; length: number }[] = [
  { tag: '9F02', length: 6 }, // Amount, Authorised
  { tag: '9F03', length: 6 }, // Amount, Other
  { tag: '9F1A', length: 2 }, // Terminal Country Code
  { tag: '95', length: 5 }, // Terminal Verification Results
  { tag: '5F2A', length: 2 }, // Transaction Currency Code
  { tag: '9A', length: 3 }, // Transaction Date
  { tag: '9C', length: 1 }, // Transaction Type
  { tag: '9F37', length: 4 }, // Unpredictable Number
  { tag: '82', length: 2 }, // Application Interchange Profile
  { tag: '9F36', length: 2 }, // Application Transaction Counter
];

/** An 8-byte application cryptogram (or `length` bytes, 4..8) over `data`. */
export function generateApplicationCryptogram(
  sessionKey: Uint8Array,
  data: Uint8Array,
  padding: Iso9797Padding = 2,
  length = 8,
): Uint8Array {
  return macIso9797Alg3Tdes(sessionKey, data, padding, length);
}
