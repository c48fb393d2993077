import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';

/**
 * The data folder's AES-256-GCM key (`terminal.key`, 32 random bytes, mode 0600). It seals the card data
 * store-and-forward must hold until the gateway returns, and the gateway password in the settings. Losing
 * the file makes the sealed data unreadable, which is the intended failure: nothing sealed is ever needed
 * longer than the store-and-forward maximum age. It also keys the employees' PIN digests (HKDF subkeys,
 * roles/pins.ts), so that a copy of the journal alone gives up no PIN; a journal whose key file was
 * replaced is refused at start (roles.ts), and the two are backed up together.
 */
export type Sealer = {
  seal(plaintext: string, associated: string): { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array };
  open(sealed: { ciphertext: Uint8Array; iv: Uint8Array; tag: Uint8Array }, associated: string): string;
};

export function loadOrCreateKey(path: string): Buffer {
  if (existsSync(path)) {
    const mode = statSync(path).mode & 0o777;
    // Someone widened the permissions: narrow them back rather than refuse to sell.
    if (process.platform !== 'win32' && (mode & 0o077) !== 0) chmodSync(path, 0o600);
    const key = readFileSync(path);
    if (key.length !== 32) throw new Error(`${path} is not a 32-byte key`);
    return key;
  }
  const key = randomBytes(32);
  writeFileSync(path, key, { mode: 0o600, flag: 'wx' });
  return key;
}

export function createSealer(key: Buffer): Sealer {
  return {
    seal(plaintext, associated) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      // The associated data binds the ciphertext to its row (the UserTransactionNumber): a sealed blob
      // copied onto another row does not open.
      cipher.setAAD(Buffer.from(associated, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { ciphertext, iv, tag: cipher.getAuthTag() };
    },
    open(sealed, associated) {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv));
      decipher.setAAD(Buffer.from(associated, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag));
      return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
