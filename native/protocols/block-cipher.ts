import { createCipheriv, createDecipheriv } from 'node:crypto';

/**
 * Single-block ECB primitives over node:crypto for the key-management standards (X9.24-1 TDES DUKPT,
 * X9.24-3 AES DUKPT, ISO 9564 format 4), which specify raw block operations with no padding.
 */

function ecb(alg: string, key: Uint8Array, block: Uint8Array, encrypt: boolean): Uint8Array {
  const c = encrypt ? createCipheriv(alg, key, null) : createDecipheriv(alg, key, null);
  c.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(block), c.final()]));
}

function doubleLength(key: Uint8Array): Uint8Array {
  const k = new Uint8Array(16);
  k.set(key, 0);
  k.set(key, 8);
  return k;
}

/**
 * Single DES on one 8-byte block. OpenSSL 3 moved `des-ecb` to the legacy provider, which Node does not
 * load; EDE with K1 = K2 is single DES (E_K(D_K(E_K(x))) = E_K(x)), so the default provider suffices.
 */
export function desEncryptBlock(key8: Uint8Array, block8: Uint8Array): Uint8Array {
  if (key8.length !== 8 || block8.length !== 8) throw new RangeError('DES: 8-byte key and block required');
  return ecb('des-ede-ecb', doubleLength(key8), block8, true);
}

/** Two-key TDES (X9.24-1 double-length keys) on one 8-byte block. */
export function tdesEncryptBlock(key16: Uint8Array, block8: Uint8Array): Uint8Array {
  if (key16.length !== 16 || block8.length !== 8) throw new RangeError('TDES: 16-byte key, 8-byte block');
  return ecb('des-ede-ecb', key16, block8, true);
}

export function tdesDecryptBlock(key16: Uint8Array, block8: Uint8Array): Uint8Array {
  if (key16.length !== 16 || block8.length !== 8) throw new RangeError('TDES: 16-byte key, 8-byte block');
  return ecb('des-ede-ecb', key16, block8, false);
}

function aesAlg(key: Uint8Array): string {
  if (key.length !== 16 && key.length !== 24 && key.length !== 32)
    throw new RangeError('AES: bad key length');
  return `aes-${key.length * 8}-ecb`;
}

/** AES (any standard key size) on one 16-byte block. */
export function aesEncryptBlock(key: Uint8Array, block16: Uint8Array): Uint8Array {
  if (block16.length !== 16) throw new RangeError('AES: 16-byte block required');
  return ecb(aesAlg(key), key, block16, true);
}

export function aesDecryptBlock(key: Uint8Array, block16: Uint8Array): Uint8Array {
  if (block16.length !== 16) throw new RangeError('AES: 16-byte block required');
  return ecb(aesAlg(key), key, block16, false);
}
