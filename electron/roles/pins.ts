import { createHmac, hkdfSync, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * How an employee's PIN is kept: never in clear, and never in a form a copy of the journal alone can test
 * guesses against (a review found 4-digit PINs under unkeyed scrypt in a 0644 journal: 10 000 guesses
 * each, offline, gave them all up).
 *
 * The digest is `k1$` + base64url(HMAC-SHA256(Klookup, scrypt(PIN, Ssalt))), with Klookup and Ssalt
 * derived by HKDF-SHA256 from the data folder's `terminal.key` (32 random bytes, 0600, outside the
 * journal). So:
 * - Without the key file the stored digests verify no PIN: the HMAC key is unknown, and so is the salt.
 * - It is deterministic for one terminal, so the journal's UNIQUE index on it finds whose PIN was typed in
 *   one look-up and keeps two employees from holding one PIN: a sign-in costs one scrypt (~50 ms), not one
 *   per employee. Its price is the per-employee salt: with the key AND the journal, one guess is tried
 *   against every employee at once. No hash saves a 4-digit PIN from someone who holds both (10 000 scrypt
 *   runs are minutes); the key file, the owner-only data folder and the sign-in throttle are what protect
 *   it. The scrypt still makes 8-digit PINs cost days, not seconds, in that case.
 *
 * PINs of a journal from before employees (`scrypt$N$r$p$salt$hash`, unkeyed) cannot be re-keyed without
 * the PIN. They are wrapped instead, at the first start with the key: `w1$N$r$p$salt$` +
 * base64url(HMAC-SHA256(Kwrap, hash)) — the same PIN still verifies (scrypt with the old salt, then the
 * HMAC), a copy of the journal alone does not — and replaced by a digest at the employee's next sign-in.
 */

const PARAMS: ScryptOptions = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

export type PinKeys = {
  lookup: Buffer;
  salt: Buffer;
  wrap: Buffer;
  /** A value that changes with the key and gives nothing of it away: tells a replaced key file. */
  check: string;
};

export function pinKeys(terminalKey: Buffer): PinKeys {
  const derive = (info: string): Buffer =>
    Buffer.from(hkdfSync('sha256', terminalKey, Buffer.alloc(0), `tillpoint/${info}`, 32));
  const check = createHmac('sha256', derive('pin-key-check/v1')).update('check').digest('base64url');
  return {
    lookup: derive('pin-lookup/v1'),
    salt: derive('pin-salt/v1'),
    wrap: derive('pin-legacy-wrap/v1'),
    check: check.slice(0, 16),
  };
}

function scryptAsync(pin: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Async scrypt runs on the libuv pool, off the core's event loop.
    scrypt(pin, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The PIN's keyed digest: what `employees.pin_lookup` holds. */
export async function pinDigest(pin: string, keys: PinKeys): Promise<string> {
  const slow = await scryptAsync(pin, keys.salt, PARAMS);
  return `k1$${createHmac('sha256', keys.lookup).update(slow).digest('base64url')}`;
}

/** Bounds on a legacy hash's parameters: a tampered row must not make one check cost gigabytes. */
function legacyParams(n: string, r: string, p: string): ScryptOptions | undefined {
  const N = Number(n);
  const R = Number(r);
  const P = Number(p);
  if (![N, R, P].every(Number.isSafeInteger) || N < 2 || N > 1 << 17 || R < 1 || R > 16 || P < 1 || P > 4)
    return undefined;
  return { N, r: R, p: P, maxmem: 256 * 1024 * 1024 };
}

/** An old unkeyed hash wrapped under the key; undefined when `stored` is not one. */
export function wrapLegacy(stored: string, keys: PinKeys): string | undefined {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  if (!legacyParams(n, r, p)) return undefined;
  const mac = createHmac('sha256', keys.wrap).update(Buffer.from(hash, 'base64')).digest('base64url');
  return `w1$${n}$${r}$${p}$${salt}$${mac}`;
}

/** Whether `pin` is the PIN a wrapped legacy hash was made from (needs the key: `keys.wrap`). */
export async function verifyWrapped(pin: string, wrapped: string, keys: PinKeys): Promise<boolean> {
  const parts = wrapped.split('$');
  if (parts.length !== 6 || parts[0] !== 'w1') return false;
  const [, n, r, p, salt, mac] = parts as [string, string, string, string, string, string];
  const options = legacyParams(n, r, p);
  if (!options) return false;
  const key = await scryptAsync(pin, Buffer.from(salt, 'base64'), options);
  const got = createHmac('sha256', keys.wrap).update(key).digest();
  const expected = Buffer.from(mac, 'base64url');
  return got.length === expected.length && timingSafeEqual(got, expected);
}
