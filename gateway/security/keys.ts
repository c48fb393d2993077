import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';

/** The gateway's secrets, 32 random bytes each. */
export type GatewayKeys = {
  /** AES-256-GCM key of the card vault. */
  vaultKey: Buffer;
  /** HMAC key of card fingerprints (duplicate detection, token grouping) and of the credential cache. */
  fingerprintKey: Buffer;
  /** HMAC key of the bearer tokens issued by /api/Auth. */
  tokenKey: Buffer;
};

type KeysFile = { version: 1; vaultKey: string; fingerprintKey: string; tokenKey: string };

export class KeysMissingError extends Error {
  constructor(file: string) {
    super(
      `no key file at ${file}: run "npm run gateway:admin -- init-keys --data <DIR>" (or start with --sandbox, which creates one)`,
    );
    this.name = 'KeysMissingError';
  }
}

export function generateKeys(): GatewayKeys {
  return { vaultKey: randomBytes(32), fingerprintKey: randomBytes(32), tokenKey: randomBytes(32) };
}

export function writeKeysFile(file: string, keys: GatewayKeys): void {
  const body: KeysFile = {
    version: 1,
    vaultKey: keys.vaultKey.toString('base64'),
    fingerprintKey: keys.fingerprintKey.toString('base64'),
    tokenKey: keys.tokenKey.toString('base64'),
  };
  // Owner-only from the first byte: the flag on open, and chmod in case the file pre-existed.
  writeFileSync(file, JSON.stringify(body, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
}

function decodeKey(value: unknown, name: string, file: string): Buffer {
  const buf = typeof value === 'string' ? Buffer.from(value, 'base64') : Buffer.alloc(0);
  if (buf.length !== 32) throw new Error(`${file}: ${name} must be 32 bytes, base64`);
  return buf;
}

export function loadKeys(file: string, createIfMissing: boolean): GatewayKeys {
  if (!existsSync(file)) {
    if (!createIfMissing) throw new KeysMissingError(file);
    const keys = generateKeys();
    if (publishKeysFile(file, keys)) return keys;
    // Another process (a second gateway started on the same fresh folder) published its keys first:
    // everyone must use that one file, or the vault and the tokens of one would be unreadable to the other.
  }
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeysFile>;
  return {
    vaultKey: decodeKey(parsed.vaultKey, 'vaultKey', file),
    fingerprintKey: decodeKey(parsed.fingerprintKey, 'fingerprintKey', file),
    tokenKey: decodeKey(parsed.tokenKey, 'tokenKey', file),
  };
}

/**
 * Writes the keys beside `file` and links them into place, so a reader never sees a half-written file and
 * of two processes creating it at once exactly one wins. False when the file already existed.
 */
function publishKeysFile(file: string, keys: GatewayKeys): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeKeysFile(draft, keys);
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}
