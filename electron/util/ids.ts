import { randomBytes } from 'node:crypto';

/** A short random id with a readable prefix (tickets, tenders, connections); never a security token. */
export function newId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** A per-launch secret for the browser-mode bridge: 256 bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}
