import { randomBytes, randomInt, randomUUID } from 'node:crypto';

/** ServiceReferenceNumber: 12 digits, not sequential (it must not reveal a merchant's volume). */
export function newServiceReferenceNumber(): string {
  return (
    String(randomInt(1, 10)) +
    String(randomInt(0, 100_000)).padStart(5, '0') +
    String(randomInt(0, 1_000_000)).padStart(6, '0')
  );
}

/** Vault token: a random UUIDv4, unrelated to the PAN. */
export function newVaultToken(): string {
  return randomUUID();
}

/** The opaque identifier returned by GetTokenForCard (not the token, not a contact value). */
export function newTokenIdentifier(): string {
  return 'id_' + randomBytes(15).toString('base64url');
}

export function isoNow(d: Date): string {
  return d.toISOString();
}
