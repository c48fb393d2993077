import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Bank account data, driver's licence numbers and processor credentials, sealed like the card vault
 * (AES-256-GCM under the vault key) but with their own associated data: a purpose and the merchant id, so
 * a ciphertext copied into another purpose's column or another merchant's row does not open.
 */
export type SealPurpose = 'bank' | 'check-holder' | 'processor-credentials';

function aad(purpose: SealPurpose, mid: number): Buffer {
  return Buffer.from(`sealed:v1:${purpose}:${mid}`);
}

export function seal(key: Buffer, purpose: SealPurpose, mid: number, value: unknown): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad(purpose, mid));
  const ct = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return ['s1', iv.toString('base64'), ct.toString('base64'), cipher.getAuthTag().toString('base64')].join(
    ':',
  );
}

export function unseal(key: Buffer, purpose: SealPurpose, mid: number, sealed: string): unknown {
  const [version, ivB64, ctB64, tagB64] = sealed.split(':');
  if (version !== 's1' || !ivB64 || !ctB64 || !tagB64) throw new Error('sealed record is malformed');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivB64, 'base64'));
  decipher.setAAD(aad(purpose, mid));
  decipher.setAuthTag(Buffer.from(tagB64, 'base64'));
  const clear = Buffer.concat([decipher.update(Buffer.from(ctB64, 'base64')), decipher.final()]);
  return JSON.parse(clear.toString('utf8')) as unknown;
}

/** Same routing + account, same fingerprint (per gateway key): the duplicate-check rule compares these. */
export function bankFingerprint(key: Buffer, routing: string, account: string): string {
  return createHmac('sha256', key)
    .update('bank:')
    .update(routing)
    .update(':')
    .update(account)
    .digest('base64url')
    .slice(0, 32);
}
