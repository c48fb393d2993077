import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

// rule: vault-encryption
/**
 * The vault keeps PANs encrypted with AES-256-GCM; everything else keeps first six, last four and a keyed
 * fingerprint. The merchant id is bound as associated data, so a ciphertext moved to another merchant's
 * row does not decrypt.
 */
export function encryptPan(key: Buffer, mid: number, pan: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(`vault:v1:${mid}`));
  const ct = Buffer.concat([cipher.update(pan, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64'), ct.toString('base64'), cipher.getAuthTag().toString('base64')].join(
    ':',
  );
}

export function decryptPan(key: Buffer, mid: number, sealed: string): string {
  const [version, ivB64, ctB64, tagB64] = sealed.split(':');
  if (version !== 'v1' || !ivB64 || !ctB64 || !tagB64) throw new Error('vault record is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivB64, 'base64'));
  decipher.setAAD(Buffer.from(`vault:v1:${mid}`));
  decipher.setAuthTag(Buffer.from(tagB64, 'base64'));
  return Buffer.concat([decipher.update(Buffer.from(ctB64, 'base64')), decipher.final()]).toString('utf8');
}

/** Same card, same fingerprint, per gateway key: used for duplicate detection and token grouping. */
export function cardFingerprint(key: Buffer, pan: string): string {
  return createHmac('sha256', key).update('pan:').update(pan).digest('base64url').slice(0, 32);
}
