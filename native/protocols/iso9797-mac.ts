import { createCipheriv, createDecipheriv } from 'node:crypto';

/**
 * ISO/IEC 9797-1 padding methods 1 and 2 and MAC algorithm 3 (the "retail MAC", ANSI X9.19), as EMV
 * 4.4 Book 2 Annex A1.2 uses them for application cryptograms, the ARPC of method 2 and issuer-script
 * MACs. Pure; DES through node:crypto.
 *
 * OpenSSL 3 moved single DES (`des-ecb`, `des-cbc`) to the legacy provider, which Node does not load.
 * Two-key EDE with K1 = K2 is single DES (E_K(D_K(E_K(x))) = E_K(x)), so every single-DES step here runs
 * as `des-ede-*` over the 8-byte key doubled.
 */

/** ISO/IEC 9797-1 §6.1 padding method: 1 = zero bytes only when needed, 2 = 0x80 then zeros, always. */
export type Iso9797Padding = 1 | 2;

export class Iso9797Error extends RangeError {
  override readonly name = 'Iso9797Error';
}

const BLOCK = 8;

/**
 * Method 1: append the fewest 0x00 bytes that make the length a multiple of the block. Empty data
 * becomes one zero block (ISO/IEC 9797-1 §6.1.1: "if the data string is empty, pad with one block").
 */
export function padIso9797Method1(data: Uint8Array, blockSize = BLOCK): Uint8Array {
  const rest = data.length % blockSize;
  if (data.length > 0 && rest === 0) return Uint8Array.from(data);
  const out = new Uint8Array(data.length + (data.length === 0 ? blockSize : blockSize - rest));
  out.set(data);
  return out;
}

/** Method 2: append 0x80, then method 1 (so a full final block still gains a block). */
export function padIso9797Method2(data: Uint8Array, blockSize = BLOCK): Uint8Array {
  const marked = new Uint8Array(data.length + 1);
  marked.set(data);
  marked[data.length] = 0x80;
  return padIso9797Method1(marked, blockSize);
}

export function padIso9797(data: Uint8Array, padding: Iso9797Padding): Uint8Array {
  if (padding === 1) return padIso9797Method1(data);
  if (padding === 2) return padIso9797Method2(data);
  throw new Iso9797Error('ISO/IEC 9797-1 padding must be method 1 or 2');
}

/** The OpenSSL cipher and key for an 8-byte DES, 16-byte two-key or 24-byte three-key TDES key. */
function cipherFor(key: Uint8Array, mode: 'ecb' | 'cbc'): [string, Uint8Array] {
  if (key.length === 16) return [`des-ede-${mode}`, key];
  if (key.length === 24) return [`des-ede3-${mode}`, key];
  if (key.length !== 8) throw new Iso9797Error('a DES key is 8 bytes, a TDES key 16 or 24');
  const k = new Uint8Array(16);
  k.set(key, 0);
  k.set(key, 8);
  return [`des-ede-${mode}`, k];
}

function run(
  mode: 'ecb' | 'cbc',
  encrypt: boolean,
  key: Uint8Array,
  iv: Uint8Array | null,
  data: Uint8Array,
) {
  if (data.length % BLOCK !== 0) throw new Iso9797Error('DES data must be whole 8-byte blocks');
  const [alg, k] = cipherFor(key, mode);
  const c = encrypt ? createCipheriv(alg, k, iv) : createDecipheriv(alg, k, iv);
  c.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

/** DES (8-byte key) or TDES (16- or 24-byte key) in ECB mode over whole blocks. */
export function desEcbEncrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  return run('ecb', true, key, null, data);
}

/** DES or two-key TDES decryption of whole blocks in ECB mode. */
export function desEcbDecrypt(key: Uint8Array, data: Uint8Array): Uint8Array {
  return run('ecb', false, key, null, data);
}

/** DES (8-byte key) or two-key TDES (16-byte key) in CBC mode over whole blocks; IV defaults to zeros. */
export function desCbcEncrypt(
  key: Uint8Array,
  data: Uint8Array,
  iv: Uint8Array = new Uint8Array(8),
): Uint8Array {
  if (iv.length !== BLOCK) throw new Iso9797Error('the CBC IV is one 8-byte block');
  return run('cbc', true, key, iv, data);
}

/** DES or two-key TDES decryption in CBC mode; IV defaults to zeros. */
export function desCbcDecrypt(
  key: Uint8Array,
  data: Uint8Array,
  iv: Uint8Array = new Uint8Array(8),
): Uint8Array {
  if (iv.length !== BLOCK) throw new Iso9797Error('the CBC IV is one 8-byte block');
  return run('cbc', false, key, iv, data);
}

/**
 * ISO/IEC 9797-1 MAC algorithm 3: single-DES CBC under `key1` over every padded block, then the last
 * chaining value is decrypted under `key2` and encrypted under `key1` again. With `key1 || key2` a
 * double-length TDES key this is EMV's MAC (Book 2 Annex A1.2.1). `length` is the MAC's size in bytes
 * (4..8; default 8), taken from the left.
 */
export function macIso9797Alg3(
  key1: Uint8Array,
  key2: Uint8Array,
  data: Uint8Array,
  padding: Iso9797Padding,
  length = 8,
): Uint8Array {
  if (key1.length !== 8 || key2.length !== 8)
    throw new Iso9797Error('MAC algorithm 3 takes two 8-byte DES keys');
  if (!Number.isInteger(length) || length < 4 || length > 8)
    throw new Iso9797Error('a MAC is 4 to 8 bytes long');
  const padded = padIso9797(data, padding);
  const chained = desCbcEncrypt(key1, padded);
  const last = chained.subarray(chained.length - BLOCK);
  const out = desEcbEncrypt(key1, desEcbDecrypt(key2, last));
  return out.slice(0, length);
}

/** MAC algorithm 3 under a double-length key: its left half is K, its right half K'. */
export function macIso9797Alg3Tdes(
  key16: Uint8Array,
  data: Uint8Array,
  padding: Iso9797Padding,
  length = 8,
): Uint8Array {
  if (key16.length !== 16) throw new Iso9797Error('a double-length TDES key is 16 bytes');
  return macIso9797Alg3(key16.subarray(0, 8), key16.subarray(8, 16), data, padding, length);
}
